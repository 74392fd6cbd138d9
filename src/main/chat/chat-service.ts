/**
 * Sends a user message and streams the assistant's answer: persists both turns, runs one request through the
 * connection's dialect, applies every part with the shared reducer, forwards parts to the renderer and
 * writes the turn in batches. Every failure ends as a turn status with a message; nothing the user wrote is lost.
 */
import type { SendResult } from '../../shared/ipc';
import type { StreamPart } from '../../shared/parts';
import { applyPart } from '../../shared/reducer';
import { isBlank, turnText, type Turn } from '../../shared/turn';
import type { ConversationStore } from '../db/conversation-store';
import type { Dialect } from '../dialects/types';
import { normalizeStream } from '../engine/normalize-stream';
import { UserFacingError } from '../errors';
import type { EmitEvent } from '../events';
import { LegError, sendRequest } from '../leg/http';
import { TurnWriter } from './turn-writer';

/** Where a chat request goes: a base URL and the dialect its server speaks. */
export interface ChatConnection {
  label: string;
  baseUrl: string;
  dialect: Dialect;
}

export interface ChatServiceDeps {
  store: ConversationStore;
  emit: EmitEvent;
  connection: () => ChatConnection;
  newId: () => string;
  now: () => number;
  log: (message: string) => void;
  /** Interval of batched writes while streaming. */
  writeIntervalMs?: number;
  /** Longest silence tolerated mid-stream before the answer is given up as cut. */
  stallTimeoutMs?: number;
}

export class ChatService {
  private readonly running = new Map<string, AbortController>();

  constructor(private readonly deps: ChatServiceDeps) {}

  send(req: { conversationId: string | null; text: string; model: string }): SendResult {
    const { store, newId, now } = this.deps;
    let conversationId = req.conversationId;
    let parentId: string | null = null;
    if (conversationId === null) {
      conversationId = newId();
      store.createConversation(conversationId, titleFrom(req.text), req.model, now());
    } else {
      const conversation = store.getConversation(conversationId);
      if (!conversation) throw new UserFacingError('not-found', 'That conversation no longer exists.');
      parentId = conversation.activeLeafId;
    }
    const userTurn: Turn = {
      id: newId(),
      conversationId,
      parentId,
      role: 'user',
      blocks: [{ type: 'text', text: req.text }],
      meta: {},
      status: 'done',
      createdAt: now(),
    };
    store.appendTurn(userTurn, now());
    const assistantTurn: Turn = {
      id: newId(),
      conversationId,
      parentId: userTurn.id,
      role: 'assistant',
      blocks: [],
      meta: {},
      status: 'streaming',
      model: req.model,
      createdAt: now(),
    };
    store.appendTurn(assistantTurn, now());
    this.deps.emit('conversations:changed', { conversationId });

    const history = store.branch(userTurn.id);
    const controller = new AbortController();
    this.running.set(assistantTurn.id, controller);
    void this.stream(history, assistantTurn, req.model, controller).finally(() => this.running.delete(assistantTurn.id));
    return { conversationId, userTurn, assistantTurn };
  }

  stop(turnId: string): boolean {
    const controller = this.running.get(turnId);
    controller?.abort();
    return controller !== undefined;
  }

  /** Resolves once every running stream has ended (used on shutdown and by tests). */
  get activeCount(): number {
    return this.running.size;
  }

  private async stream(history: Turn[], initial: Turn, model: string, controller: AbortController): Promise<void> {
    const { store, emit, log } = this.deps;
    const connection = this.deps.connection();
    const writer = new TurnWriter((t) => store.updateTurn(t), this.deps.writeIntervalMs);
    let turn = initial;
    let finished = false;
    let broke: LegError | undefined;
    const apply = (part: StreamPart) => {
      turn = applyPart(turn, part);
      if (part.type === 'finish') finished = true;
      emit('chat:turn-part', { conversationId: turn.conversationId, turnId: turn.id, part });
    };
    const fail = (message: string, stop: 'error' | 'aborted' | 'cut') => {
      if (stop !== 'aborted') apply({ type: 'error', message });
      apply({ type: 'finish', wireReason: null, stop });
    };

    try {
      const body = JSON.stringify(
        connection.dialect.encode({ model, turns: history.filter(isSendable), stream: true }),
      );
      const res = await sendRequest({
        method: 'POST',
        url: joinUrl(connection.baseUrl, connection.dialect.chatPath),
        body,
        signal: controller.signal,
        ...(this.deps.stallTimeoutMs ? { stallTimeoutMs: this.deps.stallTimeoutMs } : {}),
      });
      if (res.status < 200 || res.status >= 300) {
        const text = await res.text().catch(() => '');
        fail(`${connection.label}: ${connection.dialect.errorMessage(res.status, text)}`, 'error');
      } else {
        // A socket that breaks or stalls mid-body ends the stream without a terminal frame: the dialect derives `cut`.
        const body = endOnBreak(res.body, (err) => (broke = err));
        for await (const part of normalizeStream(body, connection.dialect)) {
          apply(part);
          if (!finished) writer.update(turn);
        }
      }
    } catch (err) {
      if (controller.signal.aborted) fail('Stopped.', 'aborted');
      else if (err instanceof LegError) fail(describeLegError(err, connection), err.kind === 'timeout' ? 'cut' : 'error');
      else {
        log(`chat: stream failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        fail('Something went wrong while reading the answer; what arrived is kept.', 'error');
      }
    }
    if (!finished) fail('The stream ended unexpectedly.', 'cut');
    if (turn.status === 'cut' && !turn.error) {
      const why = broke?.kind === 'timeout' ? broke.message : 'The connection closed before the answer was finished.';
      turn = { ...turn, error: `${why} What arrived is kept.` };
    }
    writer.finish(turn);
    emit('chat:turn-saved', { turn });
    emit('conversations:changed', { conversationId: turn.conversationId });
  }
}

async function* endOnBreak(body: AsyncIterable<Uint8Array>, onBreak: (err: LegError) => void): AsyncIterable<Uint8Array> {
  try {
    yield* body;
  } catch (err) {
    if (err instanceof LegError && (err.kind === 'network' || err.kind === 'timeout')) onBreak(err);
    else throw err;
  }
}

function describeLegError(err: LegError, connection: ChatConnection): string {
  if (err.kind === 'unreachable') {
    return `Cannot reach ${connection.label} at ${connection.baseUrl}. Is it running? Start it, or change its address in Settings.`;
  }
  return err.message;
}

/** Turns the model should see: the user's, and answers that have text (failed empty answers are left out). */
function isSendable(turn: Turn): boolean {
  if (turn.role === 'user' || turn.role === 'system') return true;
  return turn.role === 'assistant' && !isBlank(turnText(turn));
}

function titleFrom(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 60 ? `${line.slice(0, 57)}...` : line || 'New chat';
}

export function joinUrl(base: string, path: string): string {
  return base.replace(/\/+$/, '') + path;
}
