import type { JsonObject, JsonValue } from './json';
import { isBlank, turnText, type Turn } from './turn';

/**
 * The cards that change what a request carries without touching the conversation (issue 21): a summary that
 * stands in for older turns, turns or items left out, a chat continued elsewhere. Each is a structured system turn
 * (DESIGN.md §5): its text and its card are derived here from one meta, so they cannot drift; Assemble reads the
 * same meta (src/main/engine/context-edits.ts). The turns they name stay in the database, in search and exports.
 */

/** How a count was made: the server's tokenizer, the model's own (built-in engine), or the calibrated estimate. */
export type CountedBy = 'server' | 'tokenizer' | 'estimate';

/** `source: "compaction"`: a summary sent in place of the turns it covers. */
export interface CompactionMeta {
  /** The turns the summary stands for, oldest first (those of an earlier summary it folds in included). */
  covered: string[];
  /** Earlier summary cards this one folds in: they are no longer sent either. */
  replaces?: string[];
  summary: string;
  /** The request's size before and after the summary took their place. */
  tokensBefore: number;
  tokensAfter: number;
  counted: CountedBy;
  /** The model that wrote the summary. */
  model: string;
  /** Made on its own at the threshold set for the connection or alias (never silent: this card says so). */
  auto?: { threshold: number };
  /** The chat this one continues: its first turn is the summary of that one. */
  from?: { conversationId: string; title: string };
}

/** One piece of a turn left out of what is sent. */
export type DroppedItem =
  | { turnId: string; kind: 'attachment'; id: string; name: string; tokens: number }
  | { turnId: string; kind: 'tool_result'; toolCallId: string; name: string; tokens: number };

/** `source: "context-dropped"`: turns (the oldest) or one item left out of what is sent, never out of the chat. */
export interface DroppedMeta {
  /** The turns left out (an earlier summary card among them leaves its summary out). */
  turns: string[];
  /** How many messages that is, as the user was shown before confirming. */
  count: number;
  items: DroppedItem[];
  /** Tokens the left-out part took in the request. */
  tokens: number;
  tokensBefore: number;
  tokensAfter: number;
  counted: CountedBy;
}

/** `source: "continued"`: this chat goes on in another one, which starts from its summary. */
export interface ContinuedMeta {
  conversationId: string;
  title: string;
}

/** `source: "error"` with `reason: "summary-failed"`: no summary was made, and nothing was replaced. */
export interface SummaryFailedMeta {
  reason: 'summary-failed';
  model: string;
  /** `thinking-only`: the model reasoned and wrote no text; `blank`: nothing at all; `failed`: the request failed. */
  why: 'thinking-only' | 'blank' | 'failed' | 'too-long' | 'stopped' | 'no-room';
  detail?: string;
  auto?: boolean;
  /**
   * `no-room` (auto-compact only): what the request carries whatever is summarized (tool definitions, system
   * prompt) and the window, at a threshold no summary could bring the request under.
   */
  room?: FixedRoom;
}

/** The parts of a request no summary makes smaller, against its window and auto-compact's threshold. */
export interface FixedRoom {
  tools?: number;
  system?: number;
  window: number;
  threshold: number;
  counted: CountedBy;
}

const ids = (v: JsonValue | undefined): string[] | undefined => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : undefined);
const countedBy = (v: JsonValue | undefined): CountedBy => (v === 'server' || v === 'tokenizer' ? v : 'estimate');
const isObject = (v: JsonValue | undefined): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

export function compactionMeta(meta: JsonObject): CompactionMeta | undefined {
  const covered = ids(meta['covered']);
  const { summary, tokensBefore, tokensAfter, model, auto, from } = meta;
  if (!covered || typeof summary !== 'string' || typeof tokensBefore !== 'number' || typeof tokensAfter !== 'number' || typeof model !== 'string') return undefined;
  // Each message once: cards written before chained summaries were fixed named some several times ("the 36 messages").
  const out: CompactionMeta = { covered: [...new Set(covered)], summary, tokensBefore, tokensAfter, counted: countedBy(meta['counted']), model };
  const replaces = ids(meta['replaces']);
  if (replaces && replaces.length > 0) out.replaces = replaces;
  if (isObject(auto) && typeof auto['threshold'] === 'number') out.auto = { threshold: auto['threshold'] };
  if (isObject(from) && typeof from['conversationId'] === 'string' && typeof from['title'] === 'string') out.from = { conversationId: from['conversationId'], title: from['title'] };
  return out;
}

export function droppedMeta(meta: JsonObject): DroppedMeta | undefined {
  const turns = ids(meta['turns']);
  const { items, tokens, tokensBefore, tokensAfter } = meta;
  if (!turns || !Array.isArray(items) || typeof tokens !== 'number' || typeof tokensBefore !== 'number' || typeof tokensAfter !== 'number') return undefined;
  const parsed = items.flatMap((i): DroppedItem[] => {
    if (!isObject(i) || typeof i['turnId'] !== 'string' || typeof i['name'] !== 'string') return [];
    const t = typeof i['tokens'] === 'number' ? i['tokens'] : 0;
    if (i['kind'] === 'attachment' && typeof i['id'] === 'string') return [{ turnId: i['turnId'], kind: 'attachment', id: i['id'], name: i['name'], tokens: t }];
    if (i['kind'] === 'tool_result' && typeof i['toolCallId'] === 'string') return [{ turnId: i['turnId'], kind: 'tool_result', toolCallId: i['toolCallId'], name: i['name'], tokens: t }];
    return [];
  });
  const count = typeof meta['count'] === 'number' ? meta['count'] : turns.length;
  return { turns, count, items: parsed, tokens, tokensBefore, tokensAfter, counted: countedBy(meta['counted']) };
}

export function continuedMeta(meta: JsonObject): ContinuedMeta | undefined {
  const { conversationId, title } = meta;
  return typeof conversationId === 'string' && typeof title === 'string' ? { conversationId, title } : undefined;
}

export function summaryFailedMeta(meta: JsonObject): SummaryFailedMeta | undefined {
  const { reason, model, why, detail, auto } = meta;
  if (reason !== 'summary-failed' || typeof model !== 'string') return undefined;
  if (why !== 'thinking-only' && why !== 'blank' && why !== 'failed' && why !== 'too-long' && why !== 'stopped' && why !== 'no-room') return undefined;
  const room = fixedRoomOf(meta['room']);
  if (why === 'no-room' && !room) return undefined;
  return { reason, model, why, ...(typeof detail === 'string' ? { detail } : {}), ...(auto === true ? { auto } : {}), ...(room ? { room } : {}) };
}

function fixedRoomOf(v: JsonValue | undefined): FixedRoom | undefined {
  if (!isObject(v) || typeof v['window'] !== 'number' || typeof v['threshold'] !== 'number') return undefined;
  const { tools, system } = v;
  return {
    ...(typeof tools === 'number' ? { tools } : {}),
    ...(typeof system === 'number' ? { system } : {}),
    window: v['window'],
    threshold: v['threshold'],
    counted: countedBy(v['counted']),
  };
}

/** "1 message", "6 messages". */
export function messages(n: number): string {
  return `${n} ${n === 1 ? 'message' : 'messages'}`;
}

/** `about 1,200 tokens`, or the exact count with how it was made. */
export function tokensText(n: number, counted: CountedBy): string {
  const v = n.toLocaleString('en-US');
  return counted === 'estimate' ? `about ${v} tokens` : `${v} tokens`;
}

/**
 * What the model reads in place of the covered turns (and what search and export keep): the summary with one line
 * saying what it is, so the model does not take it for something the user wrote.
 */
export function compactionText(m: CompactionMeta): string {
  const head = m.from
    ? `Summary of an earlier chat (“${m.from.title}”) that this one continues, written by ${m.model}:`
    : `Summary of the ${messages(m.covered.length)} before this point, written by ${m.model} to fit the context window:`;
  return `${head}\n\n${m.summary}`;
}

export function droppedText(m: DroppedMeta): string {
  const parts: string[] = [];
  if (m.turns.length > 0) parts.push(`the ${messages(m.count)} before this point`);
  for (const i of m.items) parts.push(i.kind === 'attachment' ? `the attachment ${i.name}` : `the result of ${i.name}`);
  return `Left out of what is sent to the model: ${parts.join(', ')} (${tokensText(m.tokens, m.counted)}). They stay in this conversation. The request went from ${m.tokensBefore.toLocaleString('en-US')} to ${m.tokensAfter.toLocaleString('en-US')} tokens.`;
}

export function continuedText(m: ContinuedMeta): string {
  return `Continued in a new chat, “${m.title}”, which starts from a summary of this one.`;
}

export function summaryFailedText(m: SummaryFailedMeta): string {
  if (m.why === 'no-room' && m.room) return noRoomText(m.room);
  const why =
    m.why === 'thinking-only'
      ? `${m.model} only reasoned and wrote no summary`
      : m.why === 'blank'
        ? `${m.model} answered with nothing`
        : m.why === 'too-long'
          ? `the older turns do not fit ${m.model}’s context window even in parts`
          : m.why === 'stopped'
            ? 'it was stopped before it was done'
            : `the request to ${m.model} failed${m.detail ? `: ${m.detail}` : ''}`;
  // Only auto-compact goes on to send: a summary the user asked for under Make room sends nothing (real-engines
  // audit D4: "is sent as it was" when nothing was sent).
  return `No summary was made: ${why}. Nothing was replaced; ${m.auto ? 'the conversation is sent as it was' : 'the conversation stays as it was'}.`;
}

/**
 * Auto-compact in a window the tool definitions (or the system prompt) all but fill: a summary only replaces older
 * turns, so it could never bring the request under the threshold and one was written before every message. What
 * takes the room, and what makes some.
 */
function noRoomText(r: FixedRoom): string {
  const parts = [
    ...(r.tools ? [`the tool definitions (${tokensText(r.tools, r.counted)})`] : []),
    ...(r.system ? [`the system prompt (${tokensText(r.system, r.counted)})`] : []),
  ];
  const takes = parts.length > 0 ? parts.join(' and ') : 'what every request carries';
  const ways = [...(r.tools ? ['turn off some of the tools (this chat’s settings)'] : []), ...(r.system ? ['shorten the system prompt'] : []), 'choose a larger context window'];
  const waysText = ways.length > 1 ? `${ways.slice(0, -1).join(', ')} or ${ways.at(-1)!}` : ways[0]!;
  const pct = Math.round(r.threshold * 100);
  const at = Math.floor(r.threshold * r.window).toLocaleString('en-US');
  const leave = parts.length === 1 && !r.tools ? 'leaves' : 'leave';
  return (
    `No summary was made: ${takes} ${leave} too little of this chat’s ${r.window.toLocaleString('en-US')}-token context window. ` +
    `No summary of the older turns can bring a request under the auto-compact threshold (${pct}%, ${at} tokens), so one would be written before every message. ` +
    `To make room, ${waysText}. Nothing was replaced; the conversation is sent as it was.`
  );
}

/** The note a left-out item leaves in its place, so the model knows something was there. */
export function leftOutNote(item: Pick<DroppedItem, 'kind' | 'name'>): string {
  return item.kind === 'attachment'
    ? `[The attachment ${item.name} was left out of this request to fit the context window.]`
    : `[The result of ${item.name} was left out of this request to fit the context window.]`;
}

/**
 * Turn ids inside a card's meta, renamed (an import that had to give every turn a new id keeps the cards pointing
 * at the same turns).
 */
export function remapContextMeta(source: string | undefined, meta: JsonObject, map: (id: string) => string): JsonObject {
  if (source === 'compaction') {
    const m = compactionMeta(meta);
    return m ? { ...meta, covered: m.covered.map(map), ...(m.replaces ? { replaces: m.replaces.map(map) } : {}) } : meta;
  }
  if (source === 'context-dropped') {
    const m = droppedMeta(meta);
    return m ? { ...meta, turns: m.turns.map(map), items: m.items.map((i) => ({ ...i, turnId: map(i.turnId) })) } : meta;
  }
  return meta;
}

/**
 * The user message a refusal left waiting (issue 21): the branch's last user turn, when what follows it is only
 * cards and failed empty answers, a `context-refused` card among them. A choice that makes room answers it.
 */
export function waitingForRoom<T extends Pick<Turn, 'role' | 'source' | 'status' | 'blocks'>>(branch: readonly T[]): T | undefined {
  let refused = false;
  for (let i = branch.length - 1; i >= 0; i--) {
    const t = branch[i]!;
    if (t.role === 'system') {
      if (t.source === 'context-refused') refused = true;
      continue;
    }
    if (t.role === 'assistant' && t.status !== 'done' && t.status !== 'streaming' && isBlank(turnText(t)) && !t.blocks.some((b) => b.type === 'tool_call')) continue;
    return t.role === 'user' && refused ? t : undefined;
  }
  return undefined;
}
