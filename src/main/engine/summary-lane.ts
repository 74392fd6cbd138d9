/**
 * The summarizer lane (issue 21): a summary of the turns before a point, for the request to carry in their place.
 * Like the title lane it is a local request like any other (./lane-request.ts: Assemble, the conversation's own
 * window, no thinking asked, the one reasoning splitter, then the seed's last-close-tag peel). The turns go as a
 * plain transcript in one user message, so any dialect accepts it (tool calls without tool definitions are an
 * error on some wires). Turns that do not fit the summarizer's window in one request are summarized in parts,
 * each part folded into the summary so far. A blank answer (reasoning only, or nothing) is never a summary.
 */
import { CHARS_PER_TOKEN } from '../../shared/context-estimate';
import type { IdentityLayer } from '../../shared/identity-layer';
import { isBlank, turnText, type Turn } from '../../shared/turn';
import type { AttachmentMaterializer } from '../dialects/shared/materialize';
import { laneRequest, laneWindow, peelReasoning, type LaneDeps } from './lane-request';
import type { EngineConnection } from './types';

/** Tokens the prompt's own words take, with the template's framing. */
const PROMPT_TOKENS = 160;
/** The window assumed for a server that does not say its own. */
const UNKNOWN_WINDOW = 32_768;
/** Tries with a smaller part after the engine counted a part as too long (the estimate was off). */
const RETRIES = 3;

export function summaryPrompt(words: number): string {
  return (
    'Summarize the conversation below so that it can go on without it. Keep every fact, name, number, decision, ' +
    'instruction and open question, and say who said what (the user or the assistant). Write short plain ' +
    `paragraphs or bullet points, at most ${words} words. Answer with the summary only.`
  );
}

export interface SummaryInput {
  connection: EngineConnection;
  model: string;
  /** The identity layers the summarizer's requests use (their options and window, not their system prompt). */
  layers: readonly (IdentityLayer | undefined)[];
  /** The turns to summarize, as the request would have sent them (an earlier summary among them). */
  turns: readonly Turn[];
  conversationId: string;
  /** The longest the summary may be, in tokens. */
  budget: number;
  signal: AbortSignal;
  materialize?: AttachmentMaterializer;
}

export type SummaryResult =
  | { kind: 'summary'; text: string; model: string }
  | { kind: 'failed'; why: 'thinking-only' | 'blank' | 'failed' | 'too-long' | 'stopped'; detail?: string };

export async function writeSummary(deps: LaneDeps, input: SummaryInput): Promise<SummaryResult> {
  const entries = transcript(input.turns, input.materialize);
  const window = (await laneWindow(deps, input.connection, input.model, input.layers)) ?? UNKNOWN_WINDOW;
  const ratio = deps.calibration.ratio(input.model);
  let room = Math.floor(((window - input.budget - PROMPT_TOKENS) * 0.9 * CHARS_PER_TOKEN) / ratio);
  for (let attempt = 0; attempt <= RETRIES; attempt++) {
    if (room < 400) return { kind: 'failed', why: 'too-long' };
    const result = await summarizeParts(deps, input, pack(entries, room));
    if (result.kind !== 'too-long') return result;
    // The engine counted a part over the window: make the parts smaller by what it said, and start again.
    room = Math.floor((room * result.window * 0.85) / Math.max(result.tokens, 1));
  }
  return { kind: 'failed', why: 'too-long' };
}

async function summarizeParts(
  deps: LaneDeps,
  input: SummaryInput,
  parts: string[],
): Promise<SummaryResult | { kind: 'too-long'; tokens: number; window: number }> {
  const words = Math.max(40, Math.floor(input.budget * 0.6));
  let summary = '';
  for (const [i, part] of parts.entries()) {
    const so = summary ? `The summary so far (of the earlier part):\n${summary}\n\nThe conversation goes on:\n` : 'The conversation:\n';
    const text = `${summaryPrompt(words)}${parts.length > 1 ? ` This is part ${i + 1} of ${parts.length}: write one summary of everything so far.` : ''}\n\n${so}${part}`;
    const ask: Turn = { id: 'summary-ask', conversationId: input.conversationId, parentId: null, role: 'user', blocks: [{ type: 'text', text }], meta: {}, status: 'done', createdAt: 0 };
    const r = await laneRequest(deps, { connection: input.connection, model: input.model, layers: input.layers, ask, maxTokens: input.budget, signal: input.signal, checkWindow: true });
    if (r.kind === 'too-long') return r;
    if (r.kind === 'failed') return input.signal.aborted ? { kind: 'failed', why: 'stopped' } : { kind: 'failed', why: 'failed', detail: r.message };
    const answer = peelReasoning(turnText(r.turn)).trim();
    if (isBlank(answer)) {
      const reasoned = r.turn.blocks.some((b) => b.type === 'reasoning' && !isBlank(b.text)) || turnText(r.turn).trim() !== '';
      return { kind: 'failed', why: reasoned ? 'thinking-only' : 'blank' };
    }
    summary = answer;
  }
  return { kind: 'summary', text: summary, model: input.model };
}

/** The turns as plain lines: who said what, tool calls and results, and the text of attachments as it was sent. */
export function transcript(turns: readonly Turn[], materialize?: AttachmentMaterializer): string[] {
  const out: string[] = [];
  for (const turn of turns) {
    const lines: string[] = [];
    const text = turnText(turn).trim();
    if (turn.role === 'system') {
      if (text) lines.push(turn.source === 'compaction' ? text : `System: ${text}`);
    } else if (turn.role === 'user') {
      if (text) lines.push(`User: ${text}`);
    } else if (turn.role === 'assistant') {
      if (text) lines.push(`Assistant: ${text}`);
    }
    for (const b of turn.blocks) {
      if (b.type === 'tool_call') lines.push(`Assistant called the tool ${b.name} with ${b.argumentsRaw || '{}'}`);
      else if (b.type === 'tool_result') lines.push(`The tool ${b.name} returned${b.isError ? ' an error' : ''}: ${b.content}`);
      else if (b.type === 'attachment') {
        const m = materialize?.(b);
        lines.push(m?.kind === 'text' ? `The user attached ${b.name}:\n${m.text}` : `The user attached ${b.name} (${b.kind === 'image' ? 'an image' : b.mime}).`);
      }
    }
    if (lines.length > 0) out.push(lines.join('\n'));
  }
  return out;
}

/** Entries packed into parts of at most `room` characters, in order; an entry longer than that is cut in pieces. */
export function pack(entries: readonly string[], room: number): string[] {
  const parts: string[] = [];
  let current = '';
  const flush = () => {
    if (current) parts.push(current);
    current = '';
  };
  for (const entry of entries) {
    for (let at = 0; at < entry.length; at += room) {
      const piece = entry.slice(at, at + room);
      if (current.length + piece.length + 2 > room) flush();
      current = current ? `${current}\n\n${piece}` : piece;
    }
  }
  flush();
  return parts;
}
