import { finalAssistantText } from '../../shared/assistant-text';
import { createTurnReducer } from '../../shared/reducer';
import { isBlank, turnText, type Turn } from '../../shared/turn';
import type { ConversationStore } from '../db/conversation-store';
import type { StepStore } from '../db/step-store';
import type { EmitEvent } from '../events';
import { sendRequest } from '../leg/http';
import { normalizeStream } from './normalize-stream';
import type { EngineConnection } from './types';

export const TITLE_PROMPT =
  'Write a title of at most six words for the conversation below. Answer with the title only: no quotes, no punctuation at the end.';
const TITLE_MAX_CHARS = 60;
const TITLE_MAX_WORDS = 10;

export interface TitleDeps {
  store: ConversationStore;
  steps: StepStore;
  emit: EmitEvent;
  newId: () => string;
  now: () => number;
}

/** The user's first words: the fallback title, and the title a conversation starts with. */
export function titleFrom(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > TITLE_MAX_CHARS ? `${line.slice(0, TITLE_MAX_CHARS - 3)}...` : line || 'New chat';
}

/**
 * The title lane (issue 5): after the first answer, one short request asks the model for a title. Its output is
 * split by the same reasoning rule as any answer (the dialect's parser + the shared reducer), so a thinking
 * model's reasoning never becomes the title; blank output falls back to the user's first words. Returns the
 * title set, or undefined when the conversation was renamed meanwhile or the request failed.
 */
export async function makeTitle(deps: TitleDeps, connection: EngineConnection, model: string, branch: readonly Turn[], signal: AbortSignal): Promise<string | undefined> {
  const first = branch.find((t) => t.role === 'user');
  const answer = finalAssistantText(branch);
  if (!first || answer === '') return undefined;
  const conversationId = first.conversationId;
  const startTitle = titleFrom(turnText(first) || (first.blocks.find((b) => b.type === 'attachment')?.name ?? ''));
  const ask: Turn = {
    ...first,
    blocks: [{ type: 'text', text: `${TITLE_PROMPT}\n\nUser: ${turnText(first).slice(0, 2000)}\n\nAssistant: ${answer.slice(0, 2000)}` }],
  };
  const body = JSON.stringify(connection.dialect.encode({ model, turns: [ask], stream: true, maxTokens: 200 }));
  const url = connection.baseUrl.replace(/\/+$/, '') + connection.dialect.chatPath;
  deps.steps.begin({ id: deps.newId(), turnId: null, conversationId, stepIndex: 0, body, dialect: connection.dialect.id, endpoint: url, model, now: deps.now() });
  let made = '';
  try {
    // The built-in engine has its own leg; every other connection is HTTP.
    const res = connection.send ? await connection.send(body, signal) : await sendRequest({ method: 'POST', url, body, headers: connection.authHeaders(), signal, stallTimeoutMs: 30_000 });
    if (res.status >= 200 && res.status < 300) {
      const reducer = createTurnReducer({ ...ask, id: 'title', role: 'assistant', blocks: [], status: 'streaming' });
      for await (const part of normalizeStream(res.body, connection.dialect)) reducer.apply(part);
      made = cleanTitle(turnText(reducer.turn));
    } else {
      await res.text().catch(() => '');
    }
  } catch {
    made = '';
  }
  const current = deps.store.getConversation(conversationId);
  if (!current || current.title !== startTitle) return undefined; // renamed by the user meanwhile: theirs wins
  const title = isBlank(made) ? startTitle : made;
  if (title !== current.title) {
    deps.store.renameConversation(conversationId, title, deps.now());
    deps.emit('conversations:changed', { conversationId });
  }
  return title;
}

function cleanTitle(text: string): string {
  const line = text.trim().split('\n').find((l) => !isBlank(l)) ?? '';
  const bare = line.replace(/^(title:\s*)/i, '').replace(/^["'“”*#\s]+|["'“”*.\s]+$/g, '');
  // A model that answers the title prompt with a sentence of prose has not made a title: fall back.
  if (bare.split(/\s+/).length > TITLE_MAX_WORDS) return '';
  return bare.length > TITLE_MAX_CHARS ? `${bare.slice(0, TITLE_MAX_CHARS - 3)}...` : bare;
}
