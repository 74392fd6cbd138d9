/**
 * Sends a user message and runs the engine's step loop for the answer (src/main/engine/step-loop.ts): persists
 * the user turn and the first assistant turn, then every step's turn, tool turn and card as the loop writes
 * them. Every failure ends as a turn status with a message; nothing the user wrote is lost. After the first
 * answer, the title lane names the conversation. Its parts: what it is given (./chat-service-deps.ts), when a
 * message is refused (./send-refusals.ts), one answer's run (./run-answer.ts) and the end of one that threw
 * (./end-failed-answer.ts).
 */
import type { EditAndResendRequest, SendRequest, SendResult } from '../../shared/ipc';
import { isBlank, type Block, type Turn } from '../../shared/turn';
import { titleFrom } from '../engine/title-lane';
import type { JsonObject } from '../../shared/json';
import type { EngineConnection } from '../engine/types';
import { UserFacingError } from '../errors';
import type { ApprovalDecision, ApprovalKey } from '../tools/approval-gate';
import type { AnswerOptions, ChatServiceDeps } from './chat-service-deps';
import { endFailedAnswer } from './end-failed-answer';
import { runAnswer } from './run-answer';
import { refuseWhileAnswering, refuseWhileApprovalWaits } from './send-refusals';

export type { AnswerOptions, ChatServiceDeps } from './chat-service-deps';

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
      refuseWhileApprovalWaits(this.deps, conversationId);
      refuseWhileAnswering(this.answering, conversationId);
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
      refuseWhileApprovalWaits(this.deps, answered.conversationId);
      refuseWhileAnswering(this.answering, answered.conversationId);
    }
    const assistantTurn = store.regenerate(req.turnId, { id: newId(), ...this.labelled(req.model), createdAt: now() }, now());
    const userTurn = assistantTurn.parentId ? store.getTurn(assistantTurn.parentId) : undefined;
    if (!userTurn) throw new UserFacingError('not-found', 'The message this answer replied to no longer exists.');
    this.deps.emit('conversations:changed', { conversationId: assistantTurn.conversationId });
    this.startStream(assistantTurn, req);
    return { conversationId: assistantTurn.conversationId, userTurn, assistantTurn };
  }

  /** The edited message beside the user turn `turnId`, with the files kept and those added, then a fresh answer to it. */
  editAndResend(req: EditAndResendRequest): SendResult {
    const userTurn = this.writeEdit(req);
    return { conversationId: userTurn.conversationId, userTurn, assistantTurn: this.answer(userTurn, req) };
  }

  /**
   * What the edit of `turnId` would send (the original, and the blocks the edited message carries), checked as a
   * sent edit is, and written nowhere: Make room in the edit form measures the branch as it will be after the edit.
   */
  editedMessage(req: Pick<EditAndResendRequest, 'turnId' | 'text' | 'keepAttachments' | 'attachments'>): { original: Turn; blocks: Block[] } {
    const original = this.deps.store.getTurn(req.turnId);
    if (!original) throw new UserFacingError('not-found', 'That message no longer exists.');
    if (original.role !== 'user') throw new UserFacingError('invalid-payload', 'Only your own messages can be edited.');
    // Only the original's own files can go, those the user kept (attachments audit #7: none could be left out, and
    // "ask again without small.png" meant retyping the message and attaching the others again).
    const originals = original.blocks.filter((b) => b.type === 'attachment');
    const kept = req.keepAttachments ? originals.filter((_, i) => req.keepAttachments!.includes(i)) : originals;
    // Files added in the edit (a forgotten one) come after those kept, measured by main as a sent message's are.
    const measure = this.deps.attachment;
    const added = (req.attachments ?? []).map((a) => (measure ? measure(a) : a));
    const blocks: Block[] = [...(isBlank(req.text) ? [] : [{ type: 'text' as const, text: req.text }]), ...kept, ...added];
    if (blocks.length === 0) throw new UserFacingError('invalid-payload', 'Type a message or keep a file first.');
    // As many as a sent message may carry (SendRequest's schema), and as many places as keepAttachments can name.
    if (kept.length + added.length > 32) throw new UserFacingError('invalid-payload', `A message can carry at most 32 files; this one would have ${kept.length + added.length}. Remove some first.`);
    return { original, blocks };
  }

  /** Writes the edited message beside `turnId` (the active leaf now), unanswered: the caller answers it. */
  writeEdit(req: Pick<EditAndResendRequest, 'turnId' | 'text' | 'keepAttachments' | 'attachments'>): Turn {
    const { store, newId, now } = this.deps;
    this.deps.beforeWrite?.();
    const { original, blocks } = this.editedMessage(req);
    refuseWhileApprovalWaits(this.deps, original.conversationId);
    refuseWhileAnswering(this.answering, original.conversationId);
    return store.editAndResend(req.turnId, { id: newId(), blocks, createdAt: now() }, now());
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
    void runAnswer(this.deps, this.answerConnections, {
      start: assistantTurn,
      options,
      controller,
      onTurn: (id) => {
        ids.push(id);
        this.running.set(id, controller);
      },
      answered,
    })
      .catch((err: unknown) => endFailedAnswer(this.deps, ids, err))
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
      if (left > 0) {
        this.answering.set(conversationId, left);
        return;
      }
      this.answering.delete(conversationId);
      // A window refused a message meanwhile (send-refusals.ts): its notice goes by itself now.
      this.deps.emit('chat:answer-ended', { conversationId });
    };
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
}
