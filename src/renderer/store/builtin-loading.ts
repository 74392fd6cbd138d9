/**
 * The answers waiting on the built-in engine before their first token, each with its own state (main says so on
 * `builtin:waiting`): the answer says it waits for its model to load, or for another answer on that model to end,
 * instead of a silent "…" for the seconds to minutes a GGUF takes to load on a CPU (first-hour audit F5). Per answer
 * (tabs #4): a line per model file was shared by two answers on one model (two tabs, or a regenerate), and went from
 * both when the first one's load ended. The events alone are not enough: one sent while the page's link was down
 * never arrives, and a tab opened mid-load never heard the first; so the page also reads the engine's own list
 * (`builtin:status`) at start and after a reconnect.
 */
import { create } from 'zustand';
import type { FirebrandApi } from '../../shared/bridge';
import type { WaitingAnswer } from '../../shared/library';
import type { Turn } from '../../shared/turn';

/** The waiting answers by turn id. */
export const useBuiltinLoading = create<{ waiting: Record<string, WaitingAnswer> }>(() => ({ waiting: {} }));

function take(waiting: readonly WaitingAnswer[]): void {
  useBuiltinLoading.setState({ waiting: Object.fromEntries(waiting.map((w) => [w.turnId, w])) });
}

export function connectBuiltinLoading(api: FirebrandApi): void {
  api.builtin.onWaiting(({ waiting }) => take(waiting));
  void readBuiltinLoading(api);
}

/** Takes the answers waiting now from main; an event after the answer is applied over it as usual. */
export async function readBuiltinLoading(api: FirebrandApi): Promise<void> {
  try {
    take((await api.builtin.status({})).waiting);
  } catch {
    // The link dropped again (the next reconnect reads it) or no engine: the events still say what they say.
  }
}

/** What an answer waits on before its first token (nothing streamed yet), or null. */
export function waitingOf(turn: Turn, waiting: Readonly<Record<string, WaitingAnswer>>): WaitingAnswer | null {
  return turn.status === 'streaming' && turn.blocks.length === 0 ? (waiting[turn.id] ?? null) : null;
}

type Ahead = Extract<WaitingAnswer, { state: 'queued' }>['ahead'][number];

/**
 * The line a waiting answer shows, in words. One queued behind an answer on another model says so: it said "Loading
 * Y" while the engine was answering on X, and only then loaded Y (round 7, engine #1). Each thing before it is named
 * for what it is: a load asked from Models → Load among several said only "2 requests before it (on X, Y)" (round 9).
 */
export function waitingLine(w: WaitingAnswer): string {
  if (w.state === 'loading') return `Loading ${w.file} into memory; the answer starts once it is loaded.`;
  if (w.state === 'reading') return `Reading the conversation (${w.tokens.toLocaleString('en-US')} tokens); the answer starts once it is read.`;
  const [first] = w.ahead;
  const only = w.ahead.length === 1 ? first : undefined;
  // Its own model ahead of it means a window change, not a first load: "then loading Z" read as a second copy.
  const then = w.thenLoads ? (w.ahead.some((a) => a.file === w.file) ? `, then loading ${w.file} again with this answer's context window.` : `, then loading ${w.file}.`) : '; this answer starts then.';
  // A load asked from Models → Load runs first (round 8, engine #4): the answer said "Loading <its model>" meanwhile.
  if (only?.load && only.file === w.file && !w.thenLoads) return `Loading ${w.file} into memory (asked from Models); the answer starts once it is loaded.`;
  if (only?.answer && only.file === w.file && !w.thenLoads) return `${w.file} is answering another message; this answer starts when that one ends.`;
  if (only && !only.load) return `Waiting for ${only.answer ? `the answer on ${only.file}` : `a title or summary being made on ${only.file}`} to finish${then}`;
  const loads = [...new Set(w.ahead.filter((a) => a.load).map((a) => a.file))];
  const others = countByKind(w.ahead.filter((a) => !a.load));
  const loading = loads.length > 0 ? `${listOf(loads)} to load` : '';
  const finishing = others.length > 0 ? `${listOf(others)} to finish` : '';
  // "X to load and 1 answer on Y to finish"; with several kinds after the load, "X to load, and for …" keeps the
  // two lists apart.
  const joined = loading && finishing ? `${loading}${others.length > 1 ? ', and for ' : ' and '}${finishing}` : loading || finishing;
  return `Waiting for ${joined}${then}`;
}

/** "1 answer on X", "2 titles or summaries on Y", in the order they run. */
function countByKind(ahead: readonly Ahead[]): string[] {
  const counts = new Map<string, { answer: boolean; file: string; n: number }>();
  for (const a of ahead) {
    const key = `${a.answer ? 'a' : 't'}:${a.file}`;
    const c = counts.get(key);
    if (c) c.n += 1;
    else counts.set(key, { answer: a.answer, file: a.file, n: 1 });
  }
  return [...counts.values()].map(({ answer, file, n }) => {
    if (answer) return `${n} answer${n === 1 ? '' : 's'} on ${file}`;
    return n === 1 ? `a title or summary on ${file}` : `${n} titles or summaries on ${file}`;
  });
}

/** "A", "A and B", "A, B and C". */
function listOf(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1) ?? ''}`;
}
