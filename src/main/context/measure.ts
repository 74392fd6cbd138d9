/**
 * The size of a request as the preflight sees it (issue 21: the meter, the refusal and every choice use the same
 * numbers): Assemble builds the body from the branch (summaries and left-out turns applied), then the engine counts
 * it where it can (llama-server's `/apply-template` + `/tokenize`, the built-in engine's tokenizer), else the
 * calibrated estimate. A choice is measured by measuring the branch with its card added, unsaved: the same
 * history code that will build the next real request decides what it leaves out.
 */
import { createHash } from 'node:crypto';
import type { CountedBy } from '../../shared/context-edits';
import type { RefusalParts } from '../../shared/system-turns';
import type { Turn } from '../../shared/turn';
import { assemble } from '../engine/assemble';
import type { LargestItem } from '../engine/preflight';
import { assembleInputFor, prepareAttachments, type RequestSetup, type RequestSetupDeps } from '../engine/request-setup';
import { countPromptTokens } from '../engine/server-count';

export interface Measured {
  tokens: number;
  counted: CountedBy;
  /** The same request's character estimate before the per-model correction (what a count calibrates against). */
  rawEstimate: number;
  window: number | undefined;
  largest: LargestItem[];
  /** The tool definitions and the system prompt as estimated, and the earlier turns: the rest of `tokens`. */
  parts: Pick<RefusalParts, 'tools' | 'system' | 'earlier'>;
}

/**
 * The last few counts by the exact request counted (the connection and the body): the meter asks again at each pause
 * in typing, and the chat without the draft is the same request each time. A different body is counted afresh, so
 * a count from here is the server's count of that very request.
 */
export class CountCache {
  private readonly entries = new Map<string, { tokens: number; counted: CountedBy }>();

  constructor(private readonly size = 8) {}

  async count(key: string, make: () => Promise<{ tokens: number; counted: CountedBy } | undefined>): Promise<{ tokens: number; counted: CountedBy } | undefined> {
    const hit = this.entries.get(key);
    if (hit) {
      // The most recent last: the oldest goes first.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const made = await make();
    if (!made) return undefined;
    this.entries.set(key, made);
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.size) break;
      this.entries.delete(oldest);
    }
    return made;
  }
}

/** The request body for `branch` as measureBranch sends it to be counted (attachments prepared); undefined where none is sent. */
export function assembledBody(deps: RequestSetupDeps, setup: RequestSetup, branch: readonly Turn[]): string | undefined {
  const a = assemble({ ...assembleInputFor(deps, setup, branch), ignoreWindow: true, historyOnly: true, largest: 1 });
  return a.kind === 'send' ? a.body : undefined;
}

export async function measureBranch(deps: RequestSetupDeps, setup: RequestSetup, branch: readonly Turn[], opts: { largest?: number; exact?: boolean; counts?: CountCache } = {}): Promise<Measured | { kind: 'unsendable'; message: string }> {
  await prepareAttachments(deps, branch);
  // The message to be sent is the draft, counted apart: every image of the branch is history here.
  const a = assemble({ ...assembleInputFor(deps, setup, branch), ignoreWindow: true, historyOnly: true, largest: opts.largest ?? 1 });
  if (a.kind !== 'send') return { kind: 'unsendable', message: a.message };
  const base = { window: a.window, rawEstimate: a.rawEstimate, largest: opts.largest ? (a.largest ?? []) : [] };
  // The branch is history here: its last message is one of the earlier turns, not the one to be sent (the draft).
  // The parts are estimated from characters; a total the server (or the tokenizer) counted puts them in its units,
  // as a refusal's are. Earlier turns are only where the branch has some: a new chat's request is the tool
  // definitions and the system prompt, the template's few tokens with them ("Tool definitions — 260 tokens;
  // Earlier turns — 1,641 tokens" of a new chat's 1,901 counted by llama-server).
  const partsOf = (tokens: number): Measured['parts'] => {
    const est = a.parts ?? {};
    const inUnits = (n: number | undefined) => (n === undefined || a.estimate <= 0 ? n : Math.round((n * tokens) / a.estimate));
    let tools = inUnits(est.tools);
    let system = inUnits(est.system);
    const history = est.message !== undefined || est.earlier !== undefined;
    if (!history && tools !== undefined) tools = Math.max(0, tokens - (system ?? 0));
    else if (!history && system !== undefined) system = tokens;
    const earlier = history ? Math.max(0, tokens - (tools ?? 0) - (system ?? 0)) : 0;
    return { ...(tools !== undefined ? { tools } : {}), ...(system !== undefined ? { system } : {}), ...(earlier > 0 ? { earlier } : {}) };
  };
  if (opts.exact === false) return { ...base, tokens: a.estimate, counted: 'estimate', parts: partsOf(a.estimate) };
  const { connection } = setup;
  const exact = (tokens: number, counted: CountedBy): Measured => ({ ...base, largest: inCountedUnits(base.largest, a.estimate, tokens), tokens, counted, parts: partsOf(tokens) });
  const count = async (): Promise<{ tokens: number; counted: CountedBy } | undefined> => {
    if (connection.kind === 'llama-server') {
      const counted = await countPromptTokens(connection, a.body);
      return counted !== undefined ? { tokens: counted, counted: 'server' } : undefined;
    }
    if (!connection.preflight) return undefined;
    const r = await connection.preflight(a.body);
    if (r.kind === 'ok') return { tokens: r.promptTokens, counted: 'tokenizer' };
    const estimate = r.kind === 'refused' && r.source === 'context-refused' ? r.meta['estimate'] : undefined;
    return typeof estimate === 'number' ? { tokens: estimate, counted: 'tokenizer' } : undefined;
  };
  // By the body's digest (a chat's body can be megabytes, documents in it), and what the app knows of the model the
  // server runs: a server restarted with another model (another template, window or file) counts afresh.
  const counted = opts.counts ? await opts.counts.count(`${connection.id}\u0000${connection.baseUrl}\u0000${modelMark(setup)}\u0000${createHash('sha256').update(a.body).digest('hex')}`, count) : await count();
  if (counted) return exact(counted.tokens, counted.counted);
  return { ...base, tokens: a.estimate, counted: 'estimate', parts: partsOf(a.estimate) };
}

/** What the app knows of the model a server runs, as it last read it: another one there counts afresh. */
export function modelMark(setup: Pick<RequestSetup, 'caps'>): string {
  const c = setup.caps;
  return createHash('sha256').update(JSON.stringify([c.serverContext ?? null, c.trainedContext ?? null, c.file?.sha256 ?? null, c.template ?? null])).digest('hex');
}

/**
 * The largest parts, estimated from their characters, in the units of the count the total was made in: the card
 * listed "assistant message 2 — about 18,295 tokens" under "15,946 tokens needed (counted by the server)", a part
 * larger than the whole, and parts that disagreed with the summary's own count (real-engines audit D4). Pure.
 */
export function inCountedUnits<T extends { tokens: number }>(largest: readonly T[], estimate: number, counted: number): T[] {
  if (estimate <= 0 || counted <= 0) return [...largest];
  const factor = counted / estimate;
  return largest.map((part) => ({ ...part, tokens: Math.round(part.tokens * factor) }));
}
