/**
 * The draft's count on a long chat, cheaply and still exactly (llama-server). Each pause in typing counted the chat
 * with the draft: llama-server rendered the whole chat with its template (most of the time, 500 turns: 100–400 ms)
 * and tokenized all of it. Here the chat is rendered once per request without the draft, with a stand-in text in
 * the draft's place: the prompt is then A + draft + B for any draft the template writes as it is. The tokens are
 * those of A up to its last special token (counted once), plus those of the rest with the draft in it (a few
 * tokens): llama.cpp's tokenizer splits a prompt at its special tokens before it tokenizes the text between them.
 *
 * Every step is checked, and anything unsure is counted the old way (undefined here): the stand-in must come back
 * as it is, twice (a template that trims, escapes or quotes the message does not); the split must be after a special
 * token and give the same count as the whole for the stand-in's prompt; the draft must have nothing a template
 * might read (markup: `<`, `>`).
 */
import { createHash } from 'node:crypto';
import type { EngineConnection } from '../engine/types';
import { renderPrompt, tokenizeText, tokenPieces } from '../engine/server-count';

/**
 * Stand-ins with what an escaping, quoting or trimming template would change (a quote, a backslash, line breaks,
 * spaces at the ends): a draft is typed with a space at its end as often as not.
 */
const STAND_IN = [' fb-draft-1 "q" \\ \n end\n', '\n fb-draft-2 "qq" \\\\ \n\n the end '] as const;

interface Template {
  /** The prompt before the draft, split after its last special token: `head` tokens, then `lead`. */
  headTokens: number;
  lead: string;
  /** The prompt after the draft. */
  tail: string;
}

/** Whether a template may see `text` as plain text (none reads markup in it), written as the stand-ins were. */
export function plainDraft(text: string): boolean {
  return text.length > 0 && !/[<>]/.test(text);
}

export class DraftTemplates {
  /** By connection and the request without the draft; null: this request cannot be counted this way. */
  private readonly entries = new Map<string, Promise<Template | null>>();

  constructor(private readonly size = 4) {}

  /**
   * The request with `text` as its message, counted; undefined where it cannot be counted this way (then count it
   * whole). `withText(t)`: the request body with `t` as the draft's message.
   */
  async count(connection: EngineConnection, baseKey: string, text: string, withText: (t: string) => string | undefined): Promise<number | undefined> {
    if (connection.kind !== 'llama-server' || !plainDraft(text)) return undefined;
    const key = `${connection.id}\u0000${connection.baseUrl}\u0000${createHash('sha256').update(baseKey).digest('hex')}`;
    // Learned at the first pause on this request (two renders and a few counts), kept for the pauses after it.
    const entry = this.entries.get(key) ?? learn(connection, withText).catch(() => null);
    this.entries.delete(key);
    this.entries.set(key, entry);
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.size) break;
      this.entries.delete(oldest);
    }
    const t = await entry;
    if (!t) return undefined;
    const rest = await tokenizeText(connection, t.lead + text + t.tail, false);
    return rest === undefined ? undefined : t.headTokens + rest;
  }
}

async function learn(connection: EngineConnection, withText: (t: string) => string | undefined): Promise<Template | null> {
  const [one, two] = STAND_IN.map(withText);
  if (one === undefined || two === undefined) return null;
  const [p1, p2] = await Promise.all([renderPrompt(connection, one), renderPrompt(connection, two)]);
  if (p1 === undefined || p2 === undefined) return null;
  const at = p1.indexOf(STAND_IN[0]);
  if (at < 0 || p1.lastIndexOf(STAND_IN[0]) !== at) return null;
  const before = p1.slice(0, at);
  const tail = p1.slice(at + STAND_IN[0].length);
  if (p2 !== before + STAND_IN[1] + tail) return null;
  // The split: after the last special token before the draft (a role's start), found as the last piece of the
  // text up to a `>` or `]` that the tokenizer reads as one token only when it reads special tokens.
  for (let end = before.length; end > 0 && end > before.length - 200; end--) {
    const ch = before[end - 1];
    if (ch !== '>' && ch !== ']' && ch !== '|') continue;
    const head = before.slice(0, end);
    const last = (await tokenPieces(connection, head.slice(-64), false, true))?.at(-1)?.piece;
    if (!last || last.length < 2 || !head.endsWith(last)) continue;
    // One token read as a special token, more read as text: a special token, that ends where the text ends.
    const [special, asText] = await Promise.all([tokenizeText(connection, last, false), tokenPieces(connection, last, false, false, false)]);
    if (special !== 1 || !asText || asText.length < 2) continue;
    const [headTokens, leadTokens, whole] = await Promise.all([
      tokenizeText(connection, head, true),
      tokenizeText(connection, p1.slice(end), false),
      tokenizeText(connection, p1, true),
    ]);
    if (headTokens === undefined || leadTokens === undefined || whole === undefined || headTokens + leadTokens !== whole) return null;
    return { headTokens, lead: before.slice(end), tail };
  }
  return null;
}
