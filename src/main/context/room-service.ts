/**
 * Out of room (issue 21): when a conversation outgrows its window, the user chooses, and nothing is cut silently.
 * `plan` works out every way on with its cost (a larger window, a summary of the older turns, the oldest turns
 * left out of what is sent, a large item left out, a new chat from a summary), measured like the preflight
 * measures; `apply` does the chosen one, writes its card, and answers the message the refusal left waiting.
 * `beforeAnswer` is the optional auto-compact: the same summary and the same card, at a threshold the user set.
 */
import { summaryFailedMeta, waitingForRoom, type DroppedItem, type DroppedMeta, type FixedRoom, type SummaryFailedMeta } from '../../shared/context-edits';
import { ANSWER_ROOM, fitsWindow } from '../../shared/context-estimate';
import type { ContextMeasure, EditSpec, MeasureRequest, RoomApplied, RoomChoice, RoomPlan, RoomTarget } from '../../shared/context-ipc';
import type { Turn } from '../../shared/turn';
import type { AnswerOptions } from '../chat/chat-service';
import { setupRequest, type RequestSetup } from '../engine/request-setup';
import { UserFacingError } from '../errors';
import type { AutoCompactStore } from './auto-compact-store';
import { card, withCard } from './cards';
import { chooseCut, cutCandidates, cutPoints, dropMetaFor, letOthersRun, summaryBudget, type Cut } from './cut-plan';
import { keepLargerWindow, largerWindow } from './larger-window';
import { DraftTemplates } from './draft-template';
import { assembledBody, CountCache, measureBranch, modelMark, type Measured } from './measure';
import { resolveTarget, type ResolvedTarget, type RoomDeps } from './room-target';
import { summarizeCut } from './summarize-cut';

/** The least raw estimate a count is learned from: below it the template's own tokens are most of the count. */
const MIN_SAMPLE_TOKENS = 64;

type ApplyRequest = RoomTarget & { conversationId: string; think?: boolean; choice: RoomChoice; edit?: EditSpec };

export class RoomService {
  private readonly busy = new Map<string, AbortController>();
  /**
   * The meter's last counts, by the exact request counted: each pause in typing measures the chat without the draft
   * and with it, and on a long chat the one without was the whole chat sent to the server again for the same count.
   */
  private readonly counts = new CountCache();
  /** The chat rendered once with a stand-in for the draft: a pause's count is then the draft's part alone. */
  private readonly templates = new DraftTemplates();

  constructor(
    private readonly deps: RoomDeps,
    private readonly auto: AutoCompactStore,
  ) {}

  /** Why nothing may be sent in the conversation now, if so: a summary is being written for it. */
  busyReason(conversationId: string): string | undefined {
    return this.busy.has(conversationId) ? 'A summary is being written for this chat: wait for it, or stop it on its card. Your message is kept.' : undefined;
  }

  cancel(conversationId: string): boolean {
    const c = this.busy.get(conversationId);
    c?.abort();
    return c !== undefined;
  }

  async measure(t: MeasureRequest): Promise<ContextMeasure> {
    const target = resolveTarget(this.deps, t);
    // The chat as the page asked about it: read before the request's setup, which may wait on the server (a model's
    // details, its window) while a message is sent. Read after, it counted that message, and the page, which adds
    // the turns after the tip it asked about, counted it twice.
    const branch = t.conversationId ? (t.before ? this.branchBefore(t.conversationId, t.before) : this.branchOf(t.conversationId)) : [];
    const setup = await setupRequest(this.deps, target);
    const m = await measureBranch(this.deps, setup, branch, { counts: this.counts });
    // A request that cannot be sent at all says so when sent; the meter then counts the draft alone. (Images no
    // longer make one: the measured branch is history, and its images go as notes to a model that cannot see.)
    if ('kind' in m) return { tokens: 0, counted: 'estimate', window: null };
    this.learnRatio(setup.model, m);
    const ratio = this.deps.calibration.learned(setup.model) ? { ratio: this.deps.calibration.ratio(setup.model) } : {};
    const draft = t.draft ? await this.countDraft(setup, branch, m, t.draft, t.conversationId) : undefined;
    return { tokens: m.tokens, counted: m.counted, window: m.window ?? null, parts: m.parts, ...ratio, ...(draft ? { draft } : {}) };
  }

  /**
   * The meter adds the draft to the measure as characters scaled by what the server counted for this model. That
   * ratio was learned only at the first send, so a new chat's first message was scaled ×1: a byte-fallback
   * tokenizer's 3,640 tokens showed as 817, the meter said it fit, and the send was refused "too long for the
   * window". Where the server or the tokenizer counted the request just now, the first count teaches the ratio
   * before anything is sent, the way the preflight's count does at a send. A request of a few characters (a new
   * chat with no tools and no system prompt: the template's tokens alone) says nothing of the tokenizer.
   */
  private learnRatio(model: string, m: Measured): void {
    if (m.counted === 'estimate' || m.rawEstimate < MIN_SAMPLE_TOKENS || this.deps.calibration.learned(model)) return;
    this.deps.calibration.observe(model, m.rawEstimate, m.tokens, true);
  }

  /**
   * The draft's text counted as the message it would be, where the request was counted (not estimated): the
   * request with it, less the request without it. Undefined where it could not be counted the same way.
   */
  private async countDraft(setup: RequestSetup, branch: readonly Turn[], without: Measured, text: string, conversationId: string | null): Promise<{ text: string; tokens: number } | undefined> {
    if (without.counted === 'estimate') return undefined;
    const message = (t: string): Turn => ({ id: 'draft', conversationId: conversationId ?? '', parentId: branch.at(-1)?.id ?? null, role: 'user', blocks: [{ type: 'text', text: t }], meta: {}, status: 'done', createdAt: 0 });
    if (without.counted === 'server') {
      const base = assembledBody(this.deps, setup, branch);
      const counted = base === undefined ? undefined : await this.templates.count(setup.connection, `${modelMark(setup)}\u0000${base}`, text, (t) => assembledBody(this.deps, setup, [...branch, message(t)]));
      if (counted !== undefined) return { text, tokens: Math.max(0, counted - without.tokens) };
    }
    const withDraft = await measureBranch(this.deps, setup, [...branch, message(text)], { counts: this.counts });
    if ('kind' in withDraft || withDraft.counted !== without.counted) return undefined;
    return { text, tokens: Math.max(0, withDraft.tokens - without.tokens) };
  }

  async plan(req: RoomTarget & { keepFrom?: string; extraTokens?: number; edit?: EditSpec }): Promise<RoomPlan> {
    const target = resolveTarget(this.deps, req);
    const setup = await setupRequest(this.deps, target);
    const edited = req.edit && req.conversationId ? this.editedBranch(req.conversationId, req.edit) : undefined;
    const branch = edited?.branch ?? (req.conversationId ? this.branchOf(req.conversationId) : []);
    await letOthersRun();
    const measured = this.sendable(await measureBranch(this.deps, setup, branch, { largest: 5 }));
    // A file of the edited message itself is left out by removing its chip, not by a card.
    const now = edited ? { ...measured, largest: measured.largest.filter((part) => part.turnId !== edited.message.id) } : measured;
    const extra = req.extraTokens ?? 0;
    const need = now.tokens + extra;
    const chosen = await chooseCut(this.deps, setup, branch, now, { keepFrom: req.keepFrom, extra });
    const larger = await largerWindow(this.deps, target, need, now.window);
    await letOthersRun();
    const pending = edited?.message ?? waitingForRoom(branch);
    const droppable = now.largest.some((part) => part.drop !== undefined);
    return {
      model: target.model,
      engine: target.connection.kind,
      need,
      counted: now.counted,
      window: now.window ?? null,
      answerRoom: ANSWER_ROOM,
      over: !fitsWindow(need, now.window),
      pending: pending?.id ?? null,
      larger,
      cuts: cutPoints(branch),
      cut: chosen?.plan ?? null,
      largest: now.largest,
      // A chat of one long message had "Continue in a new chat", which then said there was nothing to summarize, and
      // "leave out a large item" with no item to leave out (real-engines audit D4).
      newChat: req.conversationId !== null && newChatCut(req.conversationId, branch, pending) !== undefined,
      noCut: chosen ? null : `Nothing is older than the message itself: ${droppable ? 'leave out a large item' : 'shorten it (edit it)'}, or use a larger window.`,
    };
  }

  async apply(request: RoomTarget & { think?: boolean; choice: RoomChoice }): Promise<RoomApplied> {
    const { store } = this.deps;
    if (request.conversationId === null) {
      // A draft in a new chat that does not fit: only the window can change before there is a chat.
      if (request.choice.kind !== 'larger-window') throw new UserFacingError('invalid-payload', 'Send a first message before summarizing or leaving turns out.');
      await keepLargerWindow(this.deps, resolveTarget(this.deps, request), request.choice.window);
      return { conversationId: null, card: null, answer: null, ok: true };
    }
    const req: ApplyRequest = { ...request, conversationId: request.conversationId };
    const conversation = store.getConversation(req.conversationId);
    if (!conversation) throw new UserFacingError('not-found', 'That conversation no longer exists.');
    const busy = this.busyReason(req.conversationId);
    if (busy) throw new UserFacingError('forbidden', busy);
    const target = resolveTarget(this.deps, req);
    const shown = this.branchOf(req.conversationId);
    if (shown.some((t) => t.status === 'streaming')) throw new UserFacingError('forbidden', 'An answer is running in this chat: wait for it, or stop it.');
    // From the edit form: the branch as it will be after the edit, its last turn the edited message, unsaved.
    const edit = req.edit;
    const edited = edit ? this.editedBranch(req.conversationId, edit) : undefined;
    const branch = edited?.branch ?? shown;
    const leaf = edited ? undefined : branch.at(-1);
    const pending = edited?.message ?? waitingForRoom(branch);
    const options: AnswerOptions = { model: req.model, think: req.think, connectionId: req.connectionId };
    const answerAfter = (parent: Turn | undefined) => (pending && parent ? this.deps.chat.answerAfter(parent, options) : null);
    const choice = req.choice;
    // The edit is written once room is made: a card the choice wrote goes after it (Assemble reads a card wherever it
    // is on the branch), and the edited message stays the sibling of the one it replaces.
    const sendEdit = (write?: (message: Turn) => Turn): RoomApplied => {
      const userTurn = this.deps.chat.writeEdit(edit!);
      this.deps.emit('conversations:changed', { conversationId: req.conversationId });
      const written = write ? write(userTurn) : null;
      return { conversationId: req.conversationId, card: written, answer: this.deps.chat.answerAfter(written ?? userTurn, options), ok: true, userTurn };
    };

    if (choice.kind === 'larger-window') {
      await keepLargerWindow(this.deps, target, choice.window);
      if (edit) return sendEdit();
      return { conversationId: req.conversationId, card: null, answer: answerAfter(leaf), ok: true };
    }
    // The chat's tools were turned off (its settings): the waiting message goes again, and is refused again, with a
    // new card, if that was not enough.
    if (choice.kind === 'answer-waiting') return edit ? sendEdit() : { conversationId: req.conversationId, card: null, answer: answerAfter(leaf), ok: true };
    const setup = await setupRequest(this.deps, target);
    const now = this.sendable(await measureBranch(this.deps, setup, branch));
    // An edit's card is placed after the edited message once it is written; a failed summary's goes where the chat ends.
    const at = { conversationId: req.conversationId, parentId: (leaf ?? shown.at(-1))?.id ?? null };

    if (choice.kind === 'drop-oldest' || choice.kind === 'drop-item') {
      if (edited && choice.kind === 'drop-item' && choice.turnId === edited.message.id) throw new UserFacingError('invalid-payload', 'A file of the message you are editing is left out by removing it from the edit.');
      const meta: DroppedMeta = choice.kind === 'drop-oldest' ? dropMetaFor(this.cutAt(branch, choice.keepFrom)) : { ...dropMetaFor({ before: [] }), items: [this.itemOf(branch, choice.turnId, choice.item)] };
      const after = this.sendable(await measureBranch(this.deps, setup, withCard(branch, 'context-dropped', meta)));
      const tokens = Math.max(0, now.tokens - after.tokens);
      const numbers = { tokens, tokensBefore: now.tokens, tokensAfter: after.tokens, counted: after.counted === now.counted ? now.counted : ('estimate' as const) };
      const items = meta.items.map((i) => ({ ...i, tokens }));
      const made = card('context-dropped', { ...meta, items, ...numbers }, { ...at, id: this.deps.newId(), now: this.deps.now() });
      if (edit) return sendEdit((message) => this.write({ ...made, parentId: message.id }));
      const written = this.write(made);
      return { conversationId: req.conversationId, card: written, answer: answerAfter(written), ok: true };
    }

    const summarizer = choice.summarizer
      ? resolveTarget(this.deps, { conversationId: req.conversationId, model: choice.summarizer.model, connectionId: choice.summarizer.connectionId ?? req.connectionId })
      : target;
    const summarizerName = this.label(choice.summarizer?.model ?? req.model);
    const controller = new AbortController();
    this.busy.set(req.conversationId, controller);
    try {
      if (choice.kind === 'summarize') {
        const cut = this.cutAt(branch, choice.keepFrom);
        const made = await summarizeCut(this.deps, { setup, branch, now, cut, summarizer, summarizerName, at, signal: controller.signal });
        // Nothing of the edit is sent when no summary was made: the edit form keeps it, and the card says why.
        if (edit && made.ok) {
          this.busy.delete(req.conversationId);
          return sendEdit((message) => this.write({ ...made.card, parentId: message.id }));
        }
        const written = this.write(made.card);
        return { conversationId: req.conversationId, card: written, answer: made.ok ? answerAfter(written) : null, ok: made.ok };
      }
      return await this.continueInNewChat(req, { setup, branch, leaf: shown.at(-1), now, pending, summarizer, summarizerName, title: conversation.title, signal: controller.signal, options });
    } finally {
      this.busy.delete(req.conversationId);
    }
  }

  /**
   * Auto-compact (off unless set per connection or alias): before an answer's first request, when the request
   * has reached the threshold share of its window, the older turns are summarized and the card goes between the
   * answer and the message it answers. A failed summary leaves its error card there and the send goes on as it
   * would have (the preflight still refuses what does not fit).
   */
  async beforeAnswer(first: Turn, options: AnswerOptions, signal: AbortSignal): Promise<Turn> {
    if (!first.parentId) return first;
    try {
      const target = resolveTarget(this.deps, { conversationId: first.conversationId, model: options.model, connectionId: options.connectionId, think: options.think });
      const threshold = this.auto.thresholdFor(this.deps.aliasId(options.model), target.connection.id);
      if (threshold === undefined) return first;
      const setup = await setupRequest(this.deps, target);
      const branch = this.deps.store.branch(first.parentId);
      const now = await measureBranch(this.deps, setup, branch);
      if ('kind' in now || now.window === undefined || now.tokens < threshold * now.window) return first;
      const fixed = (now.parts.tools ?? 0) + (now.parts.system ?? 0);
      if (fixed + summaryBudget(now.window) >= threshold * now.window) return this.noRoomToSummarize(first, branch, now, { window: now.window, threshold }, options.model);
      const chosen = await chooseCut(this.deps, setup, branch, now, {});
      if (!chosen) return first;
      const made = await summarizeCut(this.deps, {
        setup, branch, now, cut: chosen.cut, summarizer: target, summarizerName: this.label(options.model), at: { conversationId: first.conversationId, parentId: first.parentId }, signal, auto: { threshold },
      });
      if (signal.aborted) return first;
      const moved = this.deps.store.insertAbove(first.id, made.card);
      // The answer first (it keeps its place in the view), then the card, which the view puts above it.
      this.deps.emit('chat:turn-saved', { turn: moved });
      this.deps.emit('chat:turn-saved', { turn: made.card });
      return moved;
    } catch (err) {
      this.deps.log(`context: auto-compact failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      return first;
    }
  }

  /**
   * Auto-compact where what every request carries (the tool definitions, the system prompt) leaves no room under
   * the threshold for even a summary: one would be written before every message, each as useless as the last (a
   * tiny window with the tools on). Nothing is summarized; the chat says once what takes the room and what to do,
   * between the message and its answer, and the message goes on as it would have (the preflight still refuses what
   * does not fit, with its own ways on). Said again only when those parts or the window change.
   */
  private noRoomToSummarize(first: Turn, branch: readonly Turn[], now: Measured, at: { window: number; threshold: number }, model: string): Turn {
    const { tools, system } = now.parts;
    const room: FixedRoom = { ...(tools ? { tools } : {}), ...(system ? { system } : {}), window: at.window, threshold: at.threshold, counted: now.counted };
    const same = (r: FixedRoom | undefined) => r !== undefined && r.tools === room.tools && r.system === room.system && r.window === room.window && r.threshold === room.threshold;
    if (branch.some((t) => t.role === 'system' && same(summaryFailedMeta(t.meta)?.room))) return first;
    const meta: SummaryFailedMeta = { reason: 'summary-failed', model: this.label(model), why: 'no-room', auto: true, room };
    const made = card('error', meta, { id: this.deps.newId(), conversationId: first.conversationId, parentId: first.parentId, now: this.deps.now() });
    const moved = this.deps.store.insertAbove(first.id, made);
    this.deps.emit('chat:turn-saved', { turn: moved });
    this.deps.emit('chat:turn-saved', { turn: made });
    return moved;
  }

  private async continueInNewChat(
    req: ApplyRequest,
    c: { setup: RequestSetup; branch: Turn[]; leaf: Turn | undefined; now: Measured; pending: Turn | undefined; summarizer: ResolvedTarget; summarizerName: string; title: string; signal: AbortSignal; options: AnswerOptions },
  ): Promise<RoomApplied> {
    const { store, newId, now, emit } = this.deps;
    // Where this chat ends as shown (an edited message, not yet written, goes to the new chat only).
    const leaf = c.leaf;
    const cut = newChatCut(req.conversationId, c.branch, c.pending);
    if (!cut) throw new UserFacingError('invalid-payload', 'There is nothing to summarize yet in this chat.');
    const id = newId();
    const title = `${c.title} (continued)`;
    const made = await summarizeCut(this.deps, {
      setup: c.setup, branch: c.branch, now: c.now, cut, summarizer: c.summarizer, summarizerName: c.summarizerName,
      at: { conversationId: id, parentId: null }, signal: c.signal, from: { conversationId: req.conversationId, title: c.title },
    });
    if (!made.ok) {
      const failed = this.write({ ...made.card, conversationId: req.conversationId, parentId: leaf?.id ?? null });
      return { conversationId: req.conversationId, card: failed, answer: null, ok: false };
    }
    store.createConversation(id, title, this.label(req.model), now());
    this.deps.copySettings(req.conversationId, id);
    let root = made.card;
    const first: Turn | undefined = c.pending ? { ...c.pending, id: newId(), conversationId: id, parentId: root.id, createdAt: now() } : undefined;
    // Its size once there: the summary and the waiting message, measured in the new chat.
    const target = resolveTarget(this.deps, { ...req, conversationId: id });
    const measured = await measureBranch(this.deps, await setupRequest(this.deps, target), first ? [root, first] : [root]);
    if (!('kind' in measured)) root = card('compaction', { ...made.meta, tokensAfter: measured.tokens, counted: measured.counted === made.meta.counted ? made.meta.counted : 'estimate' }, { id: root.id, conversationId: id, parentId: null, now: root.createdAt });
    store.appendTurn(root, now());
    if (first) store.appendTurn(first, now());
    this.write(card('continued', { conversationId: id, title }, { id: newId(), conversationId: req.conversationId, parentId: leaf?.id ?? null, now: now() }));
    emit('conversations:changed', { conversationId: id });
    const answer = first ? this.deps.chat.answerAfter(first, c.options) : null;
    return { conversationId: id, card: root, answer, ok: true };
  }

  private label(model: string): string {
    return this.deps.modelLabel?.(model) ?? model;
  }

  private branchOf(conversationId: string): Turn[] {
    const conversation = this.deps.store.getConversation(conversationId);
    if (!conversation) throw new UserFacingError('not-found', 'That conversation no longer exists.');
    return conversation.activeLeafId ? this.deps.store.branch(conversation.activeLeafId) : [];
  }

  /** The turns before `turnId`, a sent message of this conversation (the edit form measures the chat before its edit). */
  private branchBefore(conversationId: string, turnId: string): Turn[] {
    const turn = this.deps.store.getTurn(turnId);
    if (!turn || turn.conversationId !== conversationId) throw new UserFacingError('not-found', 'That message is not in this conversation.');
    return turn.parentId ? this.deps.store.branch(turn.parentId) : [];
  }

  /**
   * The branch as it will be after `edit`: the turns before the edited message, then the edited message (unsaved,
   * with the original's id, so a cut before it names it); the turns after it are not sent.
   */
  private editedBranch(conversationId: string, edit: EditSpec): { branch: Turn[]; message: Turn } {
    const { original, blocks } = this.deps.chat.editedMessage(edit);
    if (original.conversationId !== conversationId) throw new UserFacingError('not-found', 'That message is not in this conversation.');
    const before = original.parentId ? this.deps.store.branch(original.parentId) : [];
    const message: Turn = { ...original, blocks };
    return { branch: [...before, message], message };
  }

  private sendable(m: Measured | { kind: 'unsendable'; message: string }): Measured {
    if ('kind' in m) throw new UserFacingError('invalid-payload', m.message);
    return m;
  }

  private cutAt(branch: readonly Turn[], keepFrom: string) {
    const cut = cutCandidates(branch).find((c) => c.keepFrom === keepFrom);
    if (!cut) throw new UserFacingError('invalid-payload', 'That message is not one the older turns can be cut before; choose another.');
    return cut;
  }

  private itemOf(branch: readonly Turn[], turnId: string, item: Extract<RoomChoice, { kind: 'drop-item' }>['item']): DroppedItem {
    const turn = branch.find((t) => t.id === turnId);
    for (const b of turn?.blocks ?? []) {
      if (item.kind === 'attachment' && b.type === 'attachment' && b.id === item.id) return { turnId, kind: 'attachment', id: b.id, name: b.name, tokens: 0 };
      if (item.kind === 'tool_result' && b.type === 'tool_result' && b.toolCallId === item.toolCallId) return { turnId, kind: 'tool_result', toolCallId: b.toolCallId, name: b.name, tokens: 0 };
    }
    throw new UserFacingError('not-found', 'That item is not in this conversation’s current branch.');
  }

  /** Writes a card at the tip of its conversation (the active leaf) and tells the views. */
  private write(turn: Turn): Turn {
    this.deps.store.appendTurn(turn, this.deps.now());
    this.deps.emit('chat:turn-saved', { turn });
    this.deps.emit('conversations:changed', { conversationId: turn.conversationId });
    return turn;
  }
}

/** A stand-in for the next message, so "everything so far" is a cut like any other. */
/**
 * What a new chat from a summary summarizes: everything before the waiting message, or all of the chat when none
 * waits; undefined when nothing is older than the message itself (the plan then offers no new chat).
 */
function newChatCut(conversationId: string, branch: Turn[], pending: Turn | undefined): Cut | undefined {
  const all = cutCandidates([...branch, ...(pending ? [] : [placeholderUser(conversationId, branch.at(-1)?.id ?? null)])]);
  return pending ? all.find((x) => x.keepFrom === pending.id) : all.at(-1);
}

function placeholderUser(conversationId: string, parentId: string | null): Turn {
  return { id: 'next-message', conversationId, parentId, role: 'user', blocks: [{ type: 'text', text: '' }], meta: {}, status: 'done', createdAt: 0 };
}
