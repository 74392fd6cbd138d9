/** Tree operations on the open conversation: regenerate an answer, edit and resend a message, switch branch. */
import type { SiblingInfo } from '../../shared/ipc';
import type { AttachmentBlock, Turn } from '../../shared/turn';
import { answeredRef } from '../../shared/model-ref';
import { firebrand } from '../firebrand';
import { adoptBranch, connectionOf, fail, showNotice, thinkChoice, useStore } from '.';
import { CHOOSE_A_MODEL, CHOOSE_MODEL } from './notice';
import { heldWindow } from './open-conversation';
import { branching } from './resync';

const set = useStore.setState;
const get = useStore.getState;

/** The new turn joins the siblings of the one it replaces, and is the one shown. */
function withSibling(replaced: Turn, added: Turn): Record<string, SiblingInfo> {
  const siblings = { ...get().siblings };
  const ids = [...(siblings[replaced.id]?.ids ?? [replaced.id]), added.id];
  siblings[added.id] = { ids, index: ids.length - 1 };
  return siblings;
}

/** A new answer beside `turn`, with the model and Think toggle the composer shows (`think` overrides the toggle). */
export async function regenerate(turn: Turn, think = thinkChoice()): Promise<void> {
  const model = get().selectedModel ?? answeredRef(turn, get().aliases, get().models);
  if (!model) return showNotice(CHOOSE_A_MODEL, CHOOSE_MODEL);
  try {
    const res = await branching(() => firebrand().chat.regenerate({ turnId: turn.id, model, ...(think === undefined ? {} : { think }), ...connectionOf() }));
    adoptBranch(res, turn.id, withSibling(turn, res.assistantTurn));
  } catch (err) {
    fail(err, () => void regenerate(turn, think), turn.conversationId);
  }
}

/**
 * `files.keep`: the places of the message's files that go with the edit (absent: all of them); `files.added`: files
 * attached in the edit (stored already), sent after them.
 */
export async function editAndResend(turn: Turn, text: string, files: { keep?: number[]; added?: AttachmentBlock[] } = {}, think = thinkChoice()): Promise<boolean> {
  const { keep, added = [] } = files;
  const model = get().selectedModel;
  if (!model) {
    showNotice(CHOOSE_A_MODEL, CHOOSE_MODEL);
    return false;
  }
  try {
    const res = await branching(() =>
      firebrand().chat.editAndResend({ turnId: turn.id, text, model, ...(think === undefined ? {} : { think }), ...connectionOf(), ...(keep ? { keepAttachments: keep } : {}), ...(added.length > 0 ? { attachments: added } : {}) }),
    );
    adoptBranch(res, turn.id, withSibling(turn, res.userTurn));
    return true;
  } catch (err) {
    fail(err, () => void editAndResend(turn, text, files, think), turn.conversationId);
    return false;
  }
}

/** Shows the sibling `offset` steps from `turn` (-1 previous, +1 next), with the branch below it. */
export async function switchSibling(turn: Turn, offset: number): Promise<void> {
  const info = get().siblings[turn.id];
  const target = info?.ids[info.index + offset];
  if (!target) return;
  try {
    const view = await branching(() => firebrand().conversations.switchBranch({ turnId: target }));
    if (get().activeId === view.conversation.id) set({ ...heldWindow(view.turns, view.conversation.id, target), siblings: view.siblings, notice: null });
  } catch (err) {
    fail(err, () => void switchSibling(turn, offset));
  }
}
