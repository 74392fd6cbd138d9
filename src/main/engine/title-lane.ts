import { finalAssistantText, lastAssistantText } from '../../shared/assistant-text';
import type { IdentityLayer } from '../../shared/identity-layer';
import { isBlank, turnText, type Turn } from '../../shared/turn';
import { laneRequest, peelReasoning, type LaneDeps } from './lane-request';
import type { ToolSchema } from '../dialects/types';
import type { EngineConnection } from './types';

export const TITLE_PROMPT =
  'Write a title of at most six words for the conversation below. Answer with the title only: no quotes, no punctuation at the end.';
/** The ask when the conversation itself comes before it (makeTitle says when). */
export const TITLE_ASK =
  'Write a title of at most six words for our conversation so far. Answer with the title only: no quotes, no punctuation at the end.';
const TITLE_MAX_CHARS = 60;
const TITLE_MAX_WORDS = 10;
const TITLE_MAX_TOKENS = 200;

export type TitleDeps = LaneDeps;

export interface TitleInput {
  connection: EngineConnection;
  model: string;
  branch: readonly Turn[];
  /** The conversation's identity layers (app, alias, conversation), as its answer used them. */
  layers: readonly (IdentityLayer | undefined)[];
  /** The tools the conversation's own requests offer (none where its tools are off). */
  tools: ToolSchema[];
  signal: AbortSignal;
}

/** The user's first words: the fallback title, and the title a conversation starts with. */
export function titleFrom(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return clipTitle(line) || 'New chat';
}

/**
 * A title over the limit, cut after its last whole word that fits and ended with "…". It was cut at a character
 * count and ended with "...": the top bar, exports and search showed "configure the nginx rev...". A first word too
 * long to fit is cut where the limit falls.
 */
export function clipTitle(line: string): string {
  if (line.length <= TITLE_MAX_CHARS) return line;
  const most = TITLE_MAX_CHARS - 1;
  // The last space at most one past the room: a word that ends right at the limit is whole.
  const lastSpace = line.slice(0, most + 1).search(/\s\S*$/);
  // A short first word and then one long one (a path, a URL) would leave "Fix…": cut the long one instead.
  const cut = lastSpace >= most / 2 ? line.slice(0, lastSpace) : line.slice(0, most);
  // "Compare these models:…" reads as a typo: a word's own trailing punctuation goes with what was cut.
  return `${cut.replace(/[\s,;:.\-–—]+$/u, '')}…`;
}

/**
 * The title lane (issue 5, made faithful in issue 16): after the first answer, one short request asks the model
 * for a title. It is a local request like any other (DESIGN.md §2): the conversation's own window and options
 * (Ollama `num_ctx` + `truncate: false`, so the model is not reloaded at another window for it), assembled by the
 * same Assemble. It asks for no thinking where the model allows it, starts its splitter inside a think block the
 * template opens (think-open), and its output goes through the dialect's parser, the shared reducer and then the
 * seed's last-close-tag peel, so reasoning never becomes the title. Blank output falls back to the user's first
 * words. When the final answer is blank, the salvage walk finds the last answer with text (seed 002). The ask
 * follows the conversation as its next message would (askForTitle), so the server's prompt cache still holds
 * the conversation when the user writes again.
 * Returns the title set, or undefined when there is nothing to name, the conversation was renamed meanwhile, or
 * the request failed.
 */
export async function makeTitle(deps: TitleDeps, input: TitleInput): Promise<string | undefined> {
  const { branch, signal } = input;
  const first = branch.find((t) => t.role === 'user');
  const answer = finalAssistantText(branch) || lastAssistantText(branch);
  if (!first || answer === '') return undefined;
  const conversationId = first.conversationId;
  const startTitle = titleFrom(turnText(first) || (first.blocks.find((b) => b.type === 'attachment')?.name ?? ''));
  // Named already (by the user, or a chat continued from another): nothing to ask the model.
  if (deps.store.getConversation(conversationId)?.title !== startTitle) return undefined;
  const made = await askForTitle(deps, input, answer, first).catch(() => '');
  if (signal.aborted) return undefined;
  const current = deps.store.getConversation(conversationId);
  if (!current || current.title !== startTitle) return undefined; // renamed by the user meanwhile: theirs wins
  const title = isBlank(made) ? startTitle : made;
  if (title !== current.title) {
    deps.store.renameConversation(conversationId, title);
    deps.emit('conversations:changed', { conversationId });
  }
  return title;
}

/**
 * The title request, recorded like a step; '' when nothing usable came back. First as the conversation's next
 * message (lane-request.ts: the server's prompt cache keeps the conversation, so the user's next message is not
 * read again from its first token); where that does not fit the window, the first question and answer quoted in
 * one message, as short as a title needs.
 */
async function askForTitle(deps: TitleDeps, input: TitleInput, answer: string, first: Turn): Promise<string> {
  const lane = { connection: input.connection, model: input.model, layers: input.layers, maxTokens: TITLE_MAX_TOKENS, signal: input.signal };
  const last = input.branch.at(-1);
  const next: Turn = { ...first, id: `title-${first.id}`, parentId: last?.id ?? null, blocks: [{ type: 'text', text: TITLE_ASK }] };
  let r = await laneRequest(deps, { ...lane, ask: next, conversation: { branch: input.branch, tools: input.tools } });
  if (r.kind === 'too-long') {
    const quoted = `${TITLE_PROMPT}\n\nUser: ${turnText(first).slice(0, 2000)}\n\nAssistant: ${answer.slice(0, 2000)}`;
    r = await laneRequest(deps, { ...lane, ask: { ...first, blocks: [{ type: 'text', text: quoted }] } });
  }
  return r.kind === 'answer' ? cleanTitle(peelReasoning(turnText(r.turn))) : '';
}

export { peelReasoning };

function cleanTitle(text: string): string {
  const line = text.trim().split('\n').find((l) => !isBlank(l)) ?? '';
  // Models often dress a title in markdown ("**Saving a file in `Python`**", "[the docs](https://…)"); the list
  // shows plain text, so bold and strike markers, code ticks, link targets and emphasis around words would be drawn
  // as themselves. `__` stays, as does an underscore inside a word: they are part of names (__init__, snake_case).
  const bare = line
    .replace(/^#+\s*/, '')
    .replace(/^(\*\*)?title:(\*\*)?\s*/i, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\*\*|~~|`/g, '')
    .replace(/(^|\s)([*_])(?!\2)(\S(?:.*?\S)?)\2(?=$|[\s.,:;!?])/g, '$1$3')
    // Direction controls (Trojan Source): the list and the top bar show a title as text, where a right-to-left override
    // reversed the rest of it ("open gpj.exe" for "open exe.jpg"); an answer's prose marks them, a label drops them.
    .replace(/[\u202A-\u202E\u2066-\u2069]/g, '')
    .replace(/^["'“”*#\s]+|["'“”*.:\s]+$/g, '');
  // A model that answers the title prompt with a sentence of prose has not made a title: fall back.
  if (bare.split(/\s+/).length > TITLE_MAX_WORDS) return '';
  return clipTitle(bare);
}
