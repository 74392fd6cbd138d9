import type { StreamPart } from '../../shared/parts';
import { webPageInPlaceOfAnswer } from '../dialects/shared/status-words';
import { connectionName } from '../../shared/connections';
import { fromConnection, legFailure } from './from-connection';
import { createTurnReducer } from '../../shared/reducer';
import { StreamClock } from '../../shared/turn-timing';
import type { Turn } from '../../shared/turn';
import { describeWriteFailure, TurnWriter } from './turn-writer';
import type { LiveTurns } from './live-turns';
import { redactSecrets, secretValues } from '../connections/auth';
import type { ConversationStore } from '../db/conversation-store';
import type { StepStore } from '../db/step-store';
import type { ToolSchema } from '../dialects/types';
import type { EmitEvent } from '../events';
import { LegError, sendRequest, type LegResponse } from '../leg/http';
import { normalizeBatches } from './normalize-stream';
import { ChunkCount } from './chunk-count';
import { contextOverflowOf } from './server-count';
import type { EngineConnection } from './types';

export interface StepDeps {
  store: ConversationStore;
  steps: StepStore;
  emit: EmitEvent;
  newId: () => string;
  now: () => number;
  log: (message: string) => void;
  writeIntervalMs?: number;
  stallTimeoutMs?: number;
  /** Pause before the one retry of a connect failure. */
  retryDelayMs?: number;
  /** The answers streaming now, for a chat opened mid-answer (live-turns.ts). */
  live?: LiveTurns;
}

export interface StepRequest {
  connection: EngineConnection;
  model: string;
  /** The assistant turn this step streams into (already stored, status `streaming`). */
  turn: Turn;
  stepIndex: number;
  body: string;
  attachments: string[];
  window: number | undefined;
  estimate: number;
  tools: ToolSchema[];
  thinkOpen: boolean;
  signal: AbortSignal;
  /** Tokens of the answer's earlier steps (a tool call, then more text): the running count is the whole answer's. */
  tokensBefore?: number;
  /** Told when the server refused the prompt as longer than its window (llama-server's HTTP 400). */
  onContextOverflow?: (overflow: ContextOverflow) => void;
}

export type ContextOverflow = NonNullable<ReturnType<typeof contextOverflowOf>>;

/**
 * Stream + Normalize of one step (DESIGN.md §2): records the request (committed before the socket opens), sends
 * it through the leg, folds the dialect's parts into the turn with the shared reducer, forwards each part to the
 * renderer, writes in batches, and records how the step ended. Every failure ends as a turn status with a
 * message; what arrived is kept.
 */
/**
 * The most text one answer may stream (answer, reasoning and call arguments together): about a million tokens,
 * far above any model's output limit, and low enough that a runaway or hostile server cannot grow a turn until
 * every write of it stalls the process (issue 15: a 20 MB answer stalled serve mode ~6 s; one streaming write of
 * a 4,000,000-character turn, search index included, costs ~0.2 s).
 */
export const MAX_ANSWER_CHARS = 4_000_000;

export async function runStep(deps: StepDeps, req: StepRequest): Promise<Turn> {
  const { store, emit, log } = deps;
  const { connection } = req;
  /** What every failure of this answer calls the connection: the user's name for it, as the banner does. */
  const name = connectionName(connection);
  // The step ends itself (a write that failed, an answer over the cap) through the same abort as the user's Stop.
  const ownStop = new AbortController();
  const signal = AbortSignal.any([req.signal, ownStop.signal]);
  let stoppedBecause: string | undefined;
  const stopStep = (why: string) => {
    stoppedBecause ??= why;
    ownStop.abort();
  };
  const url = connection.baseUrl.replace(/\/+$/, '') + connection.dialect.chatPath;
  const stepId = deps.newId();
  try {
    recordBegin(deps, req, stepId, url);
  } catch (err) {
    // Nothing was sent (the record is committed before the socket opens): the answer ends here, saying why.
    log(`engine: could not record the request: ${err instanceof Error ? err.message : String(err)}`);
    const ended: Turn = { ...req.turn, status: 'error', stop: 'error', wireReason: null, error: `Nothing was sent. ${describeWriteFailure(err)}` };
    const writer = new TurnWriter((t) => store.updateTurn(t));
    if (!writer.finish(ended)) saveEventually(deps, writer, ended);
    emit('chat:turn-saved', { turn: ended });
    return ended;
  }

  const writer = new TurnWriter((t) => store.updateTurn(t), deps.writeIntervalMs, (err) => {
    log(`engine: could not save the streaming answer: ${err instanceof Error ? err.message : String(err)}`);
    stopStep(describeWriteFailure(err));
  });
  let streamedChars = 0;
  const reducer = createTurnReducer(req.turn);
  /** Parts sent to the pages so far: each batch says where it starts, so a page that holds some skips them. */
  let emitted = 0;
  let finished = false;
  let broke: LegError | undefined;
  const started = deps.now();
  let clock: StreamClock | undefined;
  // The tokens streamed so far, counted from the wire chunks (chunk-count.ts); sent with the timing a few times a second.
  const count = new ChunkCount(connection.dialect.severalTokensPerChunk === true, req.tokensBefore ?? 0);
  // One IPC event per network chunk, not per token: the renderer applies a batch in one frame anyway.
  // A server may echo the key it was sent in an error; errors are stored, shown and exported, keys never are.
  const secrets = secretValues(connection.authHeaders());
  /** The parts up to the answer cap: the delta that crosses it is cut there, and the step stops (issue 15). */
  const capped = (parts: StreamPart[]): StreamPart[] => {
    const out: StreamPart[] = [];
    for (const p of parts) {
      if (p.type === 'text-delta' || p.type === 'reasoning-delta' || p.type === 'tool-call-delta') {
        const room = MAX_ANSWER_CHARS - streamedChars;
        if (p.delta.length > room) {
          if (room > 0) out.push({ ...p, delta: p.delta.slice(0, room) });
          streamedChars = MAX_ANSWER_CHARS;
          stopStep(`The answer passed ${MAX_ANSWER_CHARS.toLocaleString('en-US')} characters, so Firebrand stopped reading it; the first ${MAX_ANSWER_CHARS.toLocaleString('en-US')} are kept.`);
          return out;
        }
        streamedChars += p.delta.length;
      }
      out.push(p);
    }
    return out;
  };
  const apply = (raw: StreamPart[]) => {
    const redacted = secrets.length === 0 ? raw : raw.map((p) => (p.type === 'error' ? { ...p, message: redactSecrets(p.message, secrets) } : p));
    // The figures main will save go to the pages as soon as it knows them (the first token, a reasoning run's end),
    // with the parts that made them known: once each, not per token; the running count a few times a second.
    const parts = clock ? clock.stamp(redacted, deps.now(), count.tokens) : redacted;
    reducer.applyAll(parts);
    if (parts.some((p) => p.type === 'finish')) finished = true;
    if (parts.length > 0) {
      const from = emitted;
      emitted += parts.length;
      deps.live?.note(reducer.turn, emitted);
      emit('chat:turn-parts', { conversationId: req.turn.conversationId, turnId: req.turn.id, from, parts });
    }
    // Armed again after a timer that fired a little early by main's clock (its count not due yet, nothing sent).
    if (!finished) countLater();
  };
  // A count held back by the interval goes on its own once due, where no chunk came to carry it: a few times a
  // second at most, and only while the stream pauses.
  let countTimer: ReturnType<typeof setTimeout> | undefined;
  const countLater = () => {
    const wait = countTimer === undefined ? clock?.countDueIn(deps.now()) : undefined;
    if (wait === undefined) return;
    countTimer = setTimeout(() => {
      countTimer = undefined;
      if (!finished) apply([]);
    }, wait);
  };
  const fail = (message: string, stop: 'error' | 'aborted' | 'cut') => {
    const finish: StreamPart = { type: 'finish', wireReason: null, stop };
    apply(stop === 'aborted' ? [finish] : [{ type: 'error', message }, finish]);
  };

  try {
    clock = new StreamClock(deps.now());
    // A connection that is not HTTP (the built-in engine) brings its own leg; its response reads the same way.
    const res = connection.send ? await connection.send(req.body, signal, req.turn.id) : await sendWithRetry(deps, { url, body: req.body, headers: connection.authHeaders(), signal });
    if (stoppedBecause) throw new Error(stoppedBecause);
    if (res.status < 200 || res.status >= 300) {
      const text = await res.text().catch(() => '');
      const overflow = contextOverflowOf(res.status, text);
      if (overflow) req.onContextOverflow?.(overflow);
      fail(fromConnection(name, connection.dialect.errorMessage(res.status, text)), 'error');
    } else if (res.contentType?.startsWith('text/html')) {
      // A web page with a 200 (a proxy's or a captive portal's login page, a web app at the model server's address):
      // read as a stream it held no frame, and the answer ended "cut off", as if a connection had closed.
      fail(fromConnection(name, webPageInPlaceOfAnswer(await res.text().catch(() => ''))), 'error');
    } else {
      // A socket that breaks or stalls mid-body ends the stream without a terminal frame: the dialect derives `cut`.
      const body = endOnBreak(res.body, (err) => (broke = err));
      for await (const parts of normalizeBatches(body, connection.dialect, { tools: req.tools, thinkOpen: req.thinkOpen }, count)) {
        apply(capped(named(name, parts)));
        if (!finished) writer.update(reducer.turn);
        if (stoppedBecause) break;
      }
    }
  } catch (err) {
    if (stoppedBecause) {
      // Handled below: the step stopped itself.
    } else if (req.signal.aborted) fail('Stopped.', 'aborted');
    else if (err instanceof LegError) fail(legFailure(err, name, connection.baseUrl), err.kind === 'timeout' ? 'cut' : 'error');
    else {
      log(`engine: step failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      fail('Something went wrong while reading the answer; what arrived is kept.', 'error');
    }
  }
  clearTimeout(countTimer);
  if (stoppedBecause && !finished) fail(stoppedBecause, 'error');
  if (!finished) fail(`The stream from ${name} ended unexpectedly.`, 'cut');
  // The answer's last parts leave for the pages (event-batch.ts sends a finish at the next loop turn) before the
  // step and the turn are written below: the last words are on screen while main saves them, not after.
  await new Promise((r) => setImmediate(r));
  let turn = reducer.turn;
  // The reducer holds every figure main learned (each went through it as a `timing` part), on the blocks as they are
  // now; an answer that gave none still records that main measured it.
  if (clock && turn.meta['timing'] === undefined) turn = { ...turn, meta: { ...turn.meta, timing: clock.toMeta() } };
  if (turn.status === 'cut' && !turn.error) {
    const why = broke?.kind === 'timeout' ? broke.naming(name) : `The connection to ${name} closed before the answer was finished.`;
    turn = { ...turn, error: `${why} What arrived is kept.` };
  }
  try {
    deps.steps.finish(stepId, {
      wireReason: turn.wireReason ?? null,
      stop: turn.stop ?? 'error',
      ...(turn.usage ? { usage: turn.usage } : {}),
      timings: { wallMs: deps.now() - started },
      ...(turn.error ? { error: turn.error } : {}),
      now: deps.now(),
    });
  } catch (err) {
    log(`engine: could not record how the step ended: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!writer.finish(turn)) {
    // The last write failed too: the user is told (a success the database does not hold would be a lie), and the
    // final state is written once space allows; until then the row keeps its last write.
    if (turn.status !== 'error') turn = { ...turn, status: 'error', stop: 'error', error: stoppedBecause ?? 'The answer could not be saved.' };
    saveEventually(deps, writer, turn);
  }
  deps.live?.end(turn.id);
  emit('chat:turn-saved', { turn });
  return turn;
}

/** The step row, committed before the socket opens (DESIGN.md §2). */
function recordBegin(deps: StepDeps, req: StepRequest, stepId: string, url: string): void {
  deps.steps.begin({
    id: stepId,
    turnId: req.turn.id,
    conversationId: req.turn.conversationId,
    stepIndex: req.stepIndex,
    body: req.body,
    attachments: req.attachments,
    dialect: req.connection.dialect.id,
    endpoint: url,
    model: req.model,
    ...(req.window !== undefined ? { contextWindow: req.window } : {}),
    tokenEstimate: req.estimate,
    now: deps.now(),
  });
}

/**
 * Retry policy: only a connect failure (nothing reached the server, so nothing can have been done twice), once,
 * after a short pause. A failure after the request was sent is never retried: the model may already have run.
 */
async function sendWithRetry(
  deps: StepDeps,
  req: { url: string; body: string; headers: Record<string, string>; signal: AbortSignal },
): Promise<LegResponse> {
  const send = () =>
    sendRequest({
      method: 'POST',
      url: req.url,
      body: req.body,
      headers: req.headers,
      signal: req.signal,
      ...(deps.stallTimeoutMs ? { stallTimeoutMs: deps.stallTimeoutMs } : {}),
    });
  try {
    return await send();
  } catch (err) {
    if (!(err instanceof LegError) || err.kind !== 'unreachable' || req.signal.aborted) throw err;
    await new Promise((r) => setTimeout(r, deps.retryDelayMs ?? 500));
    if (req.signal.aborted) throw new LegError('aborted', 'Stopped.');
    return send();
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

/**
 * An error the server sent mid-answer (Ollama's `{"error": …}` line, an SSE error event, a line over the cap) said
 * as an HTTP error status is: by the connection's name ("GPU box: llama runner process has terminated"), so the
 * user knows which server failed.
 */
function named(name: string, parts: StreamPart[]): StreamPart[] {
  if (!parts.some((p) => p.type === 'error')) return parts;
  return parts.map((p) => (p.type === 'error' ? { ...p, message: fromConnection(name, p.message) } : p));
}

/** An end that could not be written: written once there is room, and shown as it will be saved meanwhile (a reload). */
export function saveEventually(deps: Pick<StepDeps, 'live'>, writer: TurnWriter, turn: Turn): void {
  deps.live?.holdUnsaved(turn);
  writer.saveEventually(turn, () => deps.live?.saved(turn.id));
}
