/**
 * Sends a user message and runs the engine's step loop for the answer (src/main/engine/step-loop.ts): persists
 * the user turn and the first assistant turn, then every step's turn, tool turn and card as the loop writes
 * them. Every failure ends as a turn status with a message; nothing the user wrote is lost. After the first
 * answer, the title lane names the conversation.
 */
import type { ThinkMode } from '../../shared/connections';
import type { SendRequest, SendResult } from '../../shared/ipc';
import { ToolRegistry } from '../tools/registry';
import type { AliasLayer } from '../aliases/alias-route';
import { isBlank, isContinueRequest, type AttachmentBlock, type Block, type Turn } from '../../shared/turn';
import type { ConversationStore } from '../db/conversation-store';
import { runLoop, type EngineDeps } from '../engine/step-loop';
import { thinkModeOf } from '../engine/think';
import { makeTitle, titleFrom } from '../engine/title-lane';
import type { IdentityLayer } from '../../shared/identity-layer';
import type { JsonObject } from '../../shared/json';
import { aliasIdOf } from '../../shared/model-ref';
import type { EngineConnection } from '../engine/types';
import { UserFacingError } from '../errors';
import type { ApprovalDecision, ApprovalKey } from '../tools/approval-gate';
import type { EmitEvent } from '../events';
import { describeWriteFailure, TurnWriter } from '../engine/turn-writer';
import { saveEventually } from '../engine/run-step';

export interface ChatServiceDeps {
  store: ConversationStore;
  emit: EmitEvent;
  newId: () => string;
  now: () => number;
  log: (message: string) => void;
  /** The engine's collaborators (step store, tools, approvals, capabilities, calibration, blob reader...). */
  engine: Omit<EngineDeps, 'store' | 'emit' | 'newId' | 'now' | 'log'>;
  /** The connection a request goes to: the one named, else the default. */
  connection: (connectionId?: string) => EngineConnection;
  /** The alias layer for a model name, where the model is an alias (src/main/aliases); it may name the model and
   * connection the request really goes to. */
  alias?: (model: string) => AliasLayer | undefined;
  /**
   * The alias a model reference (`alias:<id>`) names: its answers are labelled with its name and keep its id in
   * `meta.aliasId`, so a chat reopened after a rename follows it (models audit #6).
   */
  aliasNamed?: (model: string) => { id: string; name: string } | undefined;
  /** The conversation's own layer (system prompt, think mode, params). */
  conversationLayer?: (conversationId: string) => IdentityLayer | undefined;
  /** Keeps the settings a new conversation was started with (the composer's popover before the first send). */
  saveConversationSettings?: (conversationId: string, settings: NonNullable<SendRequest['conversationSettings']>) => void;
  /** Whether the conversation offers tools (its settings); absent: always. */
  conversationTools?: (conversationId: string) => boolean;
  /** Name new conversations with the model after their first answer (default on). */
  titles?: boolean;
  /** An attachment block as main measures it from the stored bytes (kind, media type, size); throws when gone. */
  attachment?: (claim: AttachmentBlock) => AttachmentBlock;
  /**
   * Runs before an answer's first request (issue 21's auto-compact): may put a card between the answer and the
   * turn it answers, and returns the answer as moved.
   */
  beforeAnswer?: (first: Turn, options: AnswerOptions, signal: AbortSignal) => Promise<Turn>;
  /** Why nothing may be sent in a conversation now (a summary being written for it), if so. */
  busyReason?: (conversationId: string) => string | undefined;
  /** Told when the first answer starts streaming (true) and when the last one ends (false): background work yields to answers. */
  answering?: (answering: boolean) => void;
  /** An answer (its steps and its title) ended on `connection`: Ollama's Running panel is read again, where it is Ollama's. */
  answerEnded?: (connection: EngineConnection) => void;
  /** Runs before each answer the user starts: what a full disk kept from being saved at start is tried again (db/left-open.ts). */
  beforeWrite?: () => void;
}

/** Options of one answer, as the chat channels carry them. */
export interface AnswerOptions {
  model: string;
  think?: boolean | ThinkMode | undefined;
  connectionId?: string | undefined;
}

export class ChatService {
  private readonly running = new Map<string, AbortController>();
  /** Conversations with an answer on its way (its steps, tool calls and approvals; not its title): how many each. */
  private readonly answering = new Map<string, number>();
  /** The connection of the answer on its way in each conversation, once it is known (./answerConnection). */
  private readonly answerConnections = new Map<string, { connection: EngineConnection }>();

  constructor(private readonly deps: ChatServiceDeps) {}

  send(req: SendRequest): SendResult {
    const { store, newId, now } = this.deps;
    this.deps.beforeWrite?.();
    // Main sniffs and measures every attachment itself: the renderer's kind, mime and size are not trusted.
    const measure = this.deps.attachment;
    const blocks: Block[] = (req.attachments ?? []).map((a) => (measure ? measure(a) : a));
    if (!isBlank(req.text)) blocks.unshift({ type: 'text', text: req.text });
    if (blocks.length === 0) throw new UserFacingError('invalid-payload', 'Type a message or attach a file first.');
    let conversationId = req.conversationId;
    let parentId: string | null = null;
    if (conversationId === null) {
      conversationId = newId();
      store.createConversation(conversationId, titleFrom(req.text || (req.attachments?.[0]?.name ?? '')), this.labelled(req.model).model, now());
      if (req.conversationSettings) this.deps.saveConversationSettings?.(conversationId, req.conversationSettings);
    } else {
      const conversation = store.getConversation(conversationId);
      if (!conversation) throw new UserFacingError('not-found', 'That conversation no longer exists.');
      this.refuseWhileApprovalWaits(conversationId);
      this.refuseWhileAnswering(conversationId);
      parentId = conversation.activeLeafId;
    }
    const userTurn: Turn = {
      id: newId(),
      conversationId,
      parentId,
      role: 'user',
      blocks,
      meta: {},
      status: 'done',
      createdAt: now(),
    };
    store.appendTurn(userTurn, now());
    return { conversationId, userTurn, assistantTurn: this.answer(userTurn, req) };
  }

  /** A new answer beside the assistant turn `turnId` (same parent), streamed now and made the active leaf. */
  regenerate(req: { turnId: string; model: string; think?: boolean; connectionId?: string }): SendResult {
    const { store, newId, now } = this.deps;
    this.deps.beforeWrite?.();
    const answered = store.getTurn(req.turnId);
    if (answered) {
      this.refuseWhileApprovalWaits(answered.conversationId);
      this.refuseWhileAnswering(answered.conversationId);
    }
    const assistantTurn = store.regenerate(req.turnId, { id: newId(), ...this.labelled(req.model), createdAt: now() }, now());
    const userTurn = assistantTurn.parentId ? store.getTurn(assistantTurn.parentId) : undefined;
    if (!userTurn) throw new UserFacingError('not-found', 'The message this answer replied to no longer exists.');
    this.deps.emit('conversations:changed', { conversationId: assistantTurn.conversationId });
    this.startStream(assistantTurn, req);
    return { conversationId: assistantTurn.conversationId, userTurn, assistantTurn };
  }

  /** The edited message beside the user turn `turnId`, keeping its attachments, then a fresh answer to it. */
  editAndResend(req: { turnId: string; text: string; model: string; think?: boolean; connectionId?: string }): SendResult {
    const { store, newId, now } = this.deps;
    this.deps.beforeWrite?.();
    const original = store.getTurn(req.turnId);
    if (!original) throw new UserFacingError('not-found', 'That message no longer exists.');
    this.refuseWhileApprovalWaits(original.conversationId);
    this.refuseWhileAnswering(original.conversationId);
    const blocks: Block[] = [{ type: 'text', text: req.text }, ...original.blocks.filter((b) => b.type === 'attachment')];
    const userTurn = store.editAndResend(req.turnId, { id: newId(), blocks, createdAt: now() }, now());
    return { conversationId: userTurn.conversationId, userTurn, assistantTurn: this.answer(userTurn, req) };
  }

  /**
   * A new answer below `parent` (a card a choice wrote after a refusal, issue 21), streamed now: the message the
   * refusal left waiting is answered with room made for it.
   */
  answerAfter(parent: Turn, options: AnswerOptions): Turn {
    return this.answer(parent, options);
  }

  /** Appends an empty streaming answer under `userTurn` and starts streaming into it. */
  private answer(userTurn: Turn, options: AnswerOptions): Turn {
    const { model, meta } = this.labelled(options.model);
    const { store, newId, now } = this.deps;
    const conversationId = userTurn.conversationId;
    const assistantTurn: Turn = {
      id: newId(),
      conversationId,
      parentId: userTurn.id,
      role: 'assistant',
      blocks: [],
      meta,
      status: 'streaming',
      model,
      createdAt: now(),
    };
    store.appendTurn(assistantTurn, now());
    this.deps.emit('conversations:changed', { conversationId });
    this.startStream(assistantTurn, options);
    return assistantTurn;
  }

  /** How an answer under `model` is recorded: an alias by its name, with its id (it may be renamed later). */
  private labelled(model: string): { model: string; meta: JsonObject } {
    const alias = this.deps.aliasNamed?.(model);
    return alias ? { model: alias.name, meta: { aliasId: alias.id } } : { model, meta: {} };
  }

  private startStream(assistantTurn: Turn, options: AnswerOptions): void {
    const controller = new AbortController();
    // Every turn of the run answers to the same stop: the UI may aim it at a later step's turn.
    const ids = [assistantTurn.id];
    const first = this.running.size === 0;
    this.running.set(assistantTurn.id, controller);
    if (first) this.deps.answering?.(true);
    const answered = this.noteAnswering(assistantTurn.conversationId);
    void this.run(
      assistantTurn,
      options,
      controller,
      (id) => {
        ids.push(id);
        this.running.set(id, controller);
      },
      answered,
    )
      .catch((err: unknown) => {
        this.deps.log(`chat: answer failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        // Never leave a turn spinning: whatever was still streaming ends as an error the user can see. This path
        // must not throw itself (issue 15: with the disk full, its own update failed again and ended the process).
        const why = isWriteFailure(err) ? describeWriteFailure(err) : 'Something went wrong while answering; what arrived is kept.';
        const live = this.deps.engine.live;
        for (const id of ids) {
          try {
            const row = this.deps.store.getTurn(id);
            if (row?.status !== 'streaming') continue;
            // The step's end, held until the disk has room, is on its way already: a second writer with the row's
            // older copy could land after it and take the answer's text back (full-disk audit, round 10).
            const latest = live?.latest(id);
            if (latest?.unsaved) continue;
            // What streamed, where it is ahead of the row's last write: "what arrived is kept" means all of it.
            const ended: Turn = { ...(latest?.turn ?? row), status: 'error', stop: 'error', error: why };
            live?.end(id);
            const writer = new TurnWriter((turn) => this.deps.store.updateTurn(turn));
            // Not saved (a full disk): shown as it will be saved until it is, as run-step's own ends are (round 9:
            // a reload showed the row's "streaming" copy, with a Stop that stopped nothing).
            if (!writer.finish(ended)) saveEventually({ live }, writer, ended);
            this.deps.emit('chat:turn-saved', { turn: ended });
          } catch (inner) {
            this.deps.log(`chat: could not end turn ${id}: ${inner instanceof Error ? inner.message : String(inner)}`);
          }
        }
      })
      .finally(() => {
        answered();
        for (const id of ids) this.running.delete(id);
        if (this.running.size === 0) this.deps.answering?.(false);
      });
  }

  /** Counts an answer on its way in `conversationId`; the returned function ends it (once, however often called). */
  private noteAnswering(conversationId: string): () => void {
    this.answering.set(conversationId, (this.answering.get(conversationId) ?? 0) + 1);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      const left = (this.answering.get(conversationId) ?? 1) - 1;
      if (left > 0) this.answering.set(conversationId, left);
      else this.answering.delete(conversationId);
    };
  }

  /**
   * The approval policy (README): while a run waits for the user's answer to a tool approval, nothing new is sent
   * in that conversation. A second run would hang its message under the pending card, and the old run, once
   * allowed, would carry on in a branch the user had left. Answering the card or Stop ends the wait.
   */
  private refuseWhileApprovalWaits(conversationId: string): void {
    const busy = this.deps.busyReason?.(conversationId);
    if (busy) throw new UserFacingError('forbidden', busy);
    if (!this.deps.engine.approvals.waitingIn(conversationId)) return;
    throw new UserFacingError(
      'forbidden',
      'This chat is waiting for your answer to a tool request: allow or deny it on its card, or press Stop. Then send again; your message is kept.',
    );
  }

  /**
   * One answer at a time in a conversation. The UI offers Stop instead of Send while one is on its way, but another
   * window on the same chat (serve mode opened in two tabs) does not know: its message went under the answer still
   * streaming, the model got both messages as one with no answer between them, and each tab showed another branch.
   */
  private refuseWhileAnswering(conversationId: string): void {
    if (!this.answering.has(conversationId)) return;
    throw new UserFacingError(
      'forbidden',
      'An answer is still being written in this chat (perhaps in another window): wait for it to finish, or press Stop. Then send again; your message is kept.',
    );
  }

  /** The user's answer to a `tool-approval` card; false when no call with that id is waiting. */
  approveTool(req: ApprovalKey & { decision: ApprovalDecision }): boolean {
    const { decision, ...key } = req;
    return this.deps.engine.approvals.decide(key, decision);
  }

  stop(turnId: string): boolean {
    const controller = this.running.get(turnId);
    controller?.abort();
    return controller !== undefined;
  }

  /**
   * Stops every answer running in `conversationId` (it is being deleted): otherwise the server would go on writing an
   * answer nobody can see or stop, and a one-slot server would keep the user's next message waiting behind it.
   */
  stopConversation(conversationId: string): void {
    for (const [turnId, controller] of this.running) {
      if (this.deps.store.getTurn(turnId)?.conversationId === conversationId) controller.abort();
    }
  }

  /**
   * The connection the answer on its way in `conversationId` runs on: a look at what the server loaded is made only
   * on the server that answers (round 9, engine #3: llama-server and built-in answers read Ollama's /api/ps).
   */
  answerConnection(conversationId: string): EngineConnection | undefined {
    return this.answerConnections.get(conversationId)?.connection;
  }

  /** How many answers are running (used on shutdown and by tests). */
  get activeCount(): number {
    return new Set(this.running.values()).size;
  }

  private async run(start: Turn, options: AnswerOptions, controller: AbortController, onTurn: (id: string) => void, answered: () => void): Promise<void> {
    const { store, emit } = this.deps;
    const first = this.deps.beforeAnswer ? await this.deps.beforeAnswer(start, options, controller.signal) : start;
    // An alias names its own model and connection; the layer keeps only the identity fields.
    const routed: AliasLayer | undefined = this.deps.alias?.(options.model);
    const { model: aliasModel, connectionId: aliasConnection, ...alias }: AliasLayer = routed ?? {};
    const isAlias = routed !== undefined;
    const model = aliasModel ?? options.model;
    let connection: EngineConnection;
    try {
      // An alias deleted since it was picked: the server would be asked for a model called `alias:<id>`.
      if (!isAlias && aliasIdOf(options.model) !== undefined) throw new UserFacingError('not-found', 'The alias chosen for this message no longer exists: choose another model and send again.');
      connection = this.deps.connection(aliasConnection ?? options.connectionId);
    } catch (err) {
      const ended: Turn = { ...first, status: 'error', stop: 'error', wireReason: null, error: err instanceof Error ? err.message : String(err) };
      store.updateTurn(ended);
      emit('chat:turn-saved', { turn: ended });
      return;
    }
    const on = { connection };
    this.answerConnections.set(first.conversationId, on);
    try {
      await this.runOn(first, options, controller, onTurn, answered, { connection, model, isAlias, alias });
    } finally {
      // A next answer in this conversation may have started while this one's title was made: that one's stays.
      if (this.answerConnections.get(first.conversationId) === on) this.answerConnections.delete(first.conversationId);
      this.deps.answerEnded?.(connection);
    }
  }

  private async runOn(
    first: Turn,
    options: AnswerOptions,
    controller: AbortController,
    onTurn: (id: string) => void,
    answered: () => void,
    route: { connection: EngineConnection; model: string; isAlias: boolean; alias: AliasLayer },
  ): Promise<void> {
    const { store, emit, newId, now, log } = this.deps;
    const { connection, model, isAlias, alias } = route;
    const conversation = this.deps.conversationLayer?.(first.conversationId);
    const think = thinkModeOf(options.think);
    // A conversation with tools off sends none: not the built-in ones, not the MCP servers' (issue 19).
    const tools = this.deps.conversationTools?.(first.conversationId) === false ? ToolRegistry.none() : this.deps.engine.tools;
    const turns = await runLoop(
      { ...this.deps.engine, tools, store, emit, newId, now, log },
      {
        connection,
        model,
        firstTurn: first,
        signal: controller.signal,
        onTurn,
        ...(isAlias ? { alias } : {}),
        ...(conversation ? { conversation } : {}),
        ...(think !== undefined ? { think } : {}),
      },
    );
    // The title lane below is no part of the answer: a next message may go while it runs.
    answered();
    const last = turns.at(-1);
    if (this.deps.titles === false || !last || last.status !== 'done' || controller.signal.aborted) return;
    const branch = store.branch(last.id);
    // Named after its first exchange only; a Continue of a stopped first answer is still that exchange (chat audit #3).
    if (branch.filter((t) => t.role === 'user' && !isContinueRequest(t)).length !== 1) return;
    const engine = this.deps.engine;
    await makeTitle(
      { ...engine, store, emit, newId, now, log },
      { connection, model, branch, layers: [engine.appLayer, isAlias ? alias : undefined, conversation], tools: tools.schemas(), signal: controller.signal },
    );
  }
}

export { titleFrom };

/** A failure of the database or the disk under it, rather than of the server or the engine. */
function isWriteFailure(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_') || code === 'ENOSPC');
}
