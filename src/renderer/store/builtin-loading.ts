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

/**
 * The line a waiting answer shows, in words. One queued behind an answer on another model says so: it said "Loading
 * Y" while the engine was answering on X, and only then loaded Y (round 7, engine #1).
 */
export function waitingLine(w: WaitingAnswer): string {
  if (w.state === 'loading') return `Loading ${w.file} into memory; the answer starts once it is loaded.`;
  const [first] = w.ahead;
  // A load asked from Models → Load runs first (round 8, engine #4): the answer said "Loading <its model>" meanwhile.
  if (w.ahead.length === 1 && first?.load) {
    if (first.file === w.file && !w.thenLoads) return `Loading ${w.file} into memory (asked from Models); the answer starts once it is loaded.`;
    return w.thenLoads ? `Waiting for ${first.file} to load, then loading ${w.file}.` : `Waiting for ${first.file} to load; this answer starts then.`;
  }
  if (w.ahead.length === 1 && first?.answer && first.file === w.file && !w.thenLoads) {
    return `${w.file} is answering another message; this answer starts when that one ends.`;
  }
  const models = [...new Set(w.ahead.map((a) => a.file))].join(', ');
  // A title or a summary is made on the chat's model too, after an answer: it is not "the answer" the user saw.
  const kind = w.ahead.every((a) => a.answer) ? 'answer' : 'request';
  const before = w.ahead.length === 1 ? (first?.answer ? `the answer on ${models}` : `a title or summary being made on ${models}`) : `${w.ahead.length} ${kind}s before it (on ${models})`;
  return w.thenLoads ? `Waiting for ${before} to finish, then loading ${w.file}.` : `Waiting for ${before} to finish; this answer starts then.`;
}
