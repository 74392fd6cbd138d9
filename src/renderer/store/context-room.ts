/**
 * Out of room (issue 21), the renderer's side: main's measure of the next request (the meter shows it, the draft
 * added), the plan behind the refusal card's choices, and applying a choice. Main is the one that counts, so the
 * meter, the refusal and the choices say the same numbers.
 */
import { create } from 'zustand';
import type { AutoCompactSetting, ContextMeasure, DraftSettings, EditSpec, RoomApplied, RoomChoice, RoomPlan } from '../../shared/context-ipc';
import type { Turn } from '../../shared/turn';
import { firebrand } from '../firebrand';
import { adoptTurns, connectionOf, fail, openConversation, refreshContextChoice, useStore } from './index';
import { branching } from './resync';

interface RoomState {
  /** Main's measure for `key` (conversation, model, connection and the branch's tip), and what it stood on. */
  measure: { key: string; value: ContextMeasure; base?: MeasureBase } | null;
  /** The conversation a summary is being written for, if any. */
  working: string | null;
  /** The composer's "Make room" panel is open. */
  open: boolean;
  /** Auto-compact per connection and alias (Settings, Models); null until read. */
  autoCompact: AutoCompactSetting[] | null;
  /** The open conversation, when it alone (no draft) is longer than the chosen model's window: nothing more can be sent. */
  full: string | null;
  /**
   * Texts as main counted them (the server's or the tokenizer's tokens), by where they are typed: the message box's
   * draft under '', an edit of a sent message under its turn's id.
   */
  drafts: Record<string, DraftCount>;
}

/** A text counted by main as the message it would be, with the request it goes into. */
export interface DraftCount {
  /** What was measured with it (countDraft's `key`): another key is another request. */
  key: string;
  text: string;
  /** What the text adds to the request as that message. */
  tokens: number;
  /** The request without it: the chat (the message box), the chat before the edited message (an edit). */
  base: number;
}

export const useRoom = create<RoomState>(() => ({ measure: null, working: null, open: false, autoCompact: null, full: null, drafts: {} }));

/**
 * What the measure depends on: a new key asks main again. Main measures the whole branch up to its tip, so the
 * key follows the tip, not how many of the branch's turns the view holds: a long chat's window filling in after
 * its first screenful, or older turns paged in, asked main to measure the whole chat again (and plan it, when out
 * of room) for the same answer (bench/long-chat). Every change to a branch moves or settles its tip.
 */
export function measureKey(conversationId: string | null, model: string | null, turns: readonly Turn[], connection: string | undefined, extra = ''): string | null {
  if (!model) return null;
  const tip = turns.at(-1);
  return `${conversationId ?? 'new'}|${model}|${connection ?? ''}|${tip?.id ?? ''}|${tip?.status ?? ''}|${extra}`;
}

/** What the next request carries, as the composer knows it: the measure of it is asked for again when it changes. */
export interface MeasureInput {
  conversationId: string | null;
  model: string | null;
  connection: string | undefined;
  turns: readonly Turn[];
  /** The window main said the model's next request carries; undefined until it has said. */
  window: number | null | undefined;
  systemPrompt: string;
  /** The tools on offer, as one string (none, or the built-in ones and the MCP tools). */
  tools: string;
}

/**
 * The measure's key (a new one asks main again) and its scope (what its tokens depend on: a measure stands for the
 * turns it counted while the scope is the same). The window is in the key, not the scope: a chat opened with
 * another model learns that model's window after its first measure was asked, and a message sent meanwhile lost the
 * measure for its whole answer (the meter fell to the turns' characters, without the system prompt and the tools).
 */
export function measureIdentity(m: MeasureInput): { key: string | null; scope: string } {
  const carried = `${m.systemPrompt.length}|${m.systemPrompt.slice(0, 32)}|${m.tools}`;
  return {
    key: measureKey(m.conversationId, m.model, m.turns, m.connection, `${m.window ?? ''}|${carried}`),
    scope: `${m.model ?? ''}|${m.connection ?? ''}|${carried}`,
  };
}

/**
 * What a measure counted, so that it can still stand for the turns it counted after the tip moved on: while an
 * answer streams no measure is asked for, and until the next one comes the meter counts the last measure plus the
 * turns after its tip, not the turns' characters alone (the system prompt and the tools, often most of a new chat's
 * tokens, dropped out of the meter while the first answer streamed: first-hour audit F3).
 */
export interface MeasureBase {
  /** null: a new chat (its first message creates the conversation the measure then stands for). */
  conversationId: string | null;
  /** The branch's last turn when measured; null: none. */
  tipId: string | null;
  /** The model, the connection and what the request carries besides the turns (system prompt, tools, window). */
  scope: string;
}

/** The turns after `base`'s tip on this branch (all of them after an empty chat); null when its tip is not on it. */
export function turnsSince(turns: readonly Turn[], base: MeasureBase, conversationId: string | null, scope: string): Turn[] | null {
  if (base.scope !== scope || (base.conversationId !== null && base.conversationId !== conversationId)) return null;
  if (base.tipId === null) return [...turns];
  const at = turns.findIndex((t) => t.id === base.tipId);
  return at < 0 ? null : turns.slice(at + 1);
}

/**
 * What the last measure still counts for while none is asked (an answer streams): its tokens, and the turns to add
 * by estimate. With its tip on the branch, all of it and the turns after. A regenerated answer or an edited message
 * takes the measured tip off the branch: the meter fell to the turns' characters alone while the new answer
 * streamed (1,736 to 106 against a real llama-server, whose tool definitions alone were 1,424), so the measure then
 * stands for what it counted besides the turns (tool definitions, system prompt) and the whole branch is estimated.
 * null where it stands for nothing here (another conversation, model or request).
 */
export function measureStandsFor(turns: readonly Turn[], measure: { value: ContextMeasure; base?: MeasureBase }, conversationId: string | null, scope: string): { tokens: number; turns: readonly Turn[] } | null {
  const { value, base } = measure;
  if (!base) return null;
  const since = turnsSince(turns, base, conversationId, scope);
  if (since) return { tokens: value.tokens, turns: since };
  if (base.scope !== scope || (base.conversationId !== null && base.conversationId !== conversationId) || !value.parts) return null;
  return { tokens: Math.max(0, value.tokens - (value.parts.earlier ?? 0)), turns };
}

let asking: string | null = null;

/** Asks main for the next request's size, once per key; an answer for an old key is dropped. */
export function refreshMeasure(key: string, base?: MeasureBase): void {
  const { activeId, selectedModel } = useStore.getState();
  if (!selectedModel || asking === key || useRoom.getState().measure?.key === key) return;
  asking = key;
  firebrand()
    .context.measure({ conversationId: activeId, model: selectedModel, ...connectionOf(), ...draftSettings(activeId) })
    .then((value) => {
      useRoom.setState({ measure: { key, value, ...(base ? { base } : {}) } });
      // The measure taught main this model's tokens per character (a new chat's first count): the draft, the
      // files' chips and the refusal reasons scale by it from now, not after a first send was refused.
      const { contextChoice, selectedModel: now } = useStore.getState();
      if (value.ratio !== undefined && now === selectedModel && contextChoice && value.ratio !== (contextChoice.estimateRatio ?? 1)) void refreshContextChoice();
    })
    .catch(() => undefined)
    .finally(() => {
      if (asking === key) asking = null;
    });
}

const countingDraft = new Map<string, { ask: string; answer: Promise<DraftCount | undefined> }>();

/**
 * Asks main to count `text` as the message it would be, with the measure `key` (where main counts the request:
 * llama-server, the built-in engine): the message box's draft, or with `before` the edit of that sent message (the
 * request is then the chat before it). The meter scaled the text by a ratio learned from other text, and a text
 * unlike that (CJK, code) was told "fits" and then refused for the same text. Resolves the count (undefined where
 * main could not make one); one question at a time for the same text.
 */
export function countDraft(key: string, text: string, before?: string): Promise<DraftCount | undefined> {
  const { activeId, selectedModel } = useStore.getState();
  const slot = before ?? '';
  const counted = useRoom.getState().drafts[slot];
  if (counted?.key === key && counted.text === text) return Promise.resolve(counted);
  const ask = `${key}\u0000${text}`;
  const asking = countingDraft.get(slot);
  if (asking?.ask === ask) return asking.answer;
  if (!selectedModel) return Promise.resolve(undefined);
  const answer = firebrand()
    .context.measure({ conversationId: activeId, model: selectedModel, ...connectionOf(), ...draftSettings(activeId), draft: text, ...(before ? { before } : {}) })
    .then((value) => {
      if (!value.draft) return undefined;
      const count: DraftCount = { key, text: value.draft.text, tokens: value.draft.tokens, base: value.tokens };
      useRoom.setState((s) => ({ drafts: { ...s.drafts, [slot]: count } }));
      return count;
    })
    .catch(() => undefined)
    .finally(() => {
      if (countingDraft.get(slot)?.ask === ask) countingDraft.delete(slot);
    });
  countingDraft.set(slot, { ask, answer });
  return answer;
}

/** `edit`: the plan for the branch as it will be after that edit (the edit form's Make room). */
export async function loadPlan(conversationId: string | null, opts: { keepFrom?: string; extraTokens?: number; edit?: EditSpec } = {}): Promise<RoomPlan> {
  const model = useStore.getState().selectedModel;
  if (!model) throw new Error('Choose a model first.');
  return firebrand().context.plan({ conversationId, model, ...connectionOf(), ...draftSettings(conversationId), ...opts });
}

/**
 * A new chat's settings (its popover) ride with the measure: its first message is sent with them, so its system
 * prompt counts and, with tools off, no tool definitions do (chat audit #2).
 */
function draftSettings(conversationId: string | null): { draftSettings?: DraftSettings } {
  if (conversationId !== null) return {};
  const { systemPrompt, think, tools } = useStore.getState().conversationSettings;
  return { draftSettings: { systemPrompt, think, tools } };
}

/** A sent message's edit, as the edit form holds it: a choice made from the form sends it once there is room. */
export interface EditRoom {
  /** The message edited: the one sent becomes its sibling. */
  turn: Turn;
  spec: EditSpec;
}

/**
 * Does what the user chose; the card and the answer it started come into the view (a new chat opens). Resolves
 * the result, or throws with a message for the user. With `edit`, the edited message is sent once room is made:
 * it replaces `edit.turn` in the view, its card and answer after it (nothing is sent when the choice failed).
 */
export async function applyChoice(conversationId: string | null, choice: RoomChoice, think?: boolean, edit?: EditRoom): Promise<RoomApplied> {
  const model = useStore.getState().selectedModel;
  if (!model) throw new Error('Choose a model first.');
  const summarizing = choice.kind === 'summarize' || choice.kind === 'new-chat';
  if (summarizing && conversationId) useRoom.setState({ working: conversationId });
  try {
    const ask = () => firebrand().context.apply({ conversationId, model, choice, ...connectionOf(), ...(think !== undefined ? { think } : {}), ...(edit ? { edit: edit.spec } : {}) });
    // An edit makes a new branch: the page does not read the chat again meanwhile as if another window had (resync).
    const res = edit ? await branching(ask) : await ask();
    useRoom.setState({ open: false });
    if (res.conversationId !== null) {
      if (res.conversationId !== useStore.getState().activeId) await openConversation(res.conversationId);
      else if (edit && res.userTurn) adoptEdit(edit.turn, res.userTurn);
      adoptTurns(res.conversationId, [res.card, res.answer].filter((t): t is Turn => t !== null));
    }
    if (choice.kind === 'larger-window') void refreshContextChoice();
    return res;
  } finally {
    if (summarizing) useRoom.setState({ working: null });
  }
}

/** The edited message in place of the one it replaces, the last of the view, and one of its siblings. */
function adoptEdit(replaced: Turn, sent: Turn): void {
  const { turns, siblings } = useStore.getState();
  const at = turns.findIndex((t) => t.id === replaced.id);
  const ids = [...(siblings[replaced.id]?.ids ?? [replaced.id]), sent.id];
  useStore.setState({
    turns: [...(at >= 0 ? turns.slice(0, at) : turns), sent],
    siblings: { ...siblings, [sent.id]: { ids, index: ids.length - 1 } },
    notice: null,
    focusTurn: null,
  });
}

export async function cancelSummary(conversationId: string): Promise<void> {
  await firebrand()
    .context.cancel({ conversationId })
    .catch((err: unknown) => fail(err, () => void cancelSummary(conversationId)));
}

export function setRoomOpen(open: boolean): void {
  useRoom.setState({ open });
}

let followingAutoCompact = false;

/**
 * Reads the auto-compact settings, and from then on follows them as saved in any window or tab: another tab's
 * Models screen (an alias's) and Settings (a connection's) kept showing the old choice until the page was reloaded.
 */
export async function loadAutoCompact(): Promise<void> {
  if (!followingAutoCompact) {
    followingAutoCompact = true;
    firebrand().context.onAutoCompactChanged(({ settings }) => useRoom.setState({ autoCompact: settings }));
  }
  try {
    useRoom.setState({ autoCompact: await firebrand().context.autoCompact({}) });
  } catch (err) {
    fail(err, () => void loadAutoCompact());
  }
}

export async function setAutoCompact(kind: AutoCompactSetting['kind'], id: string, threshold: number | null): Promise<void> {
  try {
    useRoom.setState({ autoCompact: await firebrand().context.setAutoCompact({ kind, id, threshold }) });
  } catch (err) {
    fail(err, () => void setAutoCompact(kind, id, threshold));
  }
}
