/**
 * How much of the window is left for each waiting attachment, and why a draft is too long (attachments audit #2).
 *
 * Two scales meet here. A chip counts its attachment as main measured it (by the 4-characters rule, or the
 * server's count); the meter's estimate, like the window, is in the model's own tokens: the rule's count scaled by
 * what the server counted for this model (`ratio`). The reason under the message box speaks with the meter and
 * the window, so its numbers add up ("3.5K are left in the 4K-token window", never more than the window); a PDF's
 * page row speaks with its chip, since it is the chip's pages that are chosen.
 *
 * Each attachment is charged against what is left after the conversation, the message and the attachments
 * smaller than it: a 43-token PDF next to a 41K-token text file fits, and the text file is the one said not to.
 */
import { ANSWER_ROOM, calibratedTokens, fitsWindow } from '../../../shared/context-estimate';
import { pagesThatFit } from '../../../shared/attachment-text';
import type { LargerWindow, RoomPlan } from '../../../shared/context-ipc';
import type { AttachmentInspection } from '../../../shared/ipc';
import type { AttachmentBlock } from '../../../shared/turn';
import { formatExactTokens, formatTokens, tokenPairParts } from '../../format';

/** A waiting attachment and what its chip says it costs. */
export interface WaitingCost {
  block: AttachmentBlock;
  /** The chip's count: as main measured it, not scaled. */
  tokens: number;
}

/** What is left of the window for one attachment. */
export interface Room {
  /** In the chip's scale: compared with the chip's tokens. */
  left: number;
  /** In the chip's scale, the room for the answer kept: what chosen pages may cost. */
  forPages: number;
  /** In the window's scale, at most the window: what the reason says. */
  inWindow: number;
}

export interface WindowState {
  window: number;
  /** The meter's estimate of the request, the waiting attachments included (window scale). */
  estimate: number;
  /** Server count over the rule's count for this model; 1 where none is known. */
  ratio: number;
  items: readonly WaitingCost[];
  /** The message's text alone (window scale), where known: with the items, what the chat before it leaves out. */
  message?: number;
  /** The tool definitions the request carries (window scale), as main measured them; absent where none or not known. */
  tools?: number | undefined;
}

const toWindowScale = calibratedTokens;
const toChipScale = (tokens: number, ratio: number) => Math.floor(Math.max(0, tokens) / (ratio > 0 ? ratio : 1));

/** The room each waiting attachment has, the smallest charged first (ties in the order attached). */
export function roomsFor(state: WindowState): Map<AttachmentBlock, Room> {
  const { window, estimate, ratio, items } = state;
  const scaled = items.map((i) => toWindowScale(i.tokens, ratio));
  let used = estimate - scaled.reduce((a, b) => a + b, 0);
  const order = items.map((_, i) => i).sort((a, b) => (items[a]?.tokens ?? 0) - (items[b]?.tokens ?? 0) || a - b);
  const rooms = new Map<AttachmentBlock, Room>();
  for (const i of order) {
    const item = items[i];
    if (!item) continue;
    const left = window - used;
    rooms.set(item.block, {
      left: toChipScale(left, ratio),
      forPages: toChipScale(left - ANSWER_ROOM, ratio),
      inWindow: Math.min(window, Math.max(0, left)),
    });
    used += scaled[i] ?? 0;
  }
  return rooms;
}

/** A PDF whose pages can be chosen (read, with its page lengths known). */
export function hasPageChoice(inspection: AttachmentInspection | undefined): inspection is AttachmentInspection & { pageChars: number[] } {
  return inspection !== undefined && inspection.error === null && inspection.pageCount !== null && inspection.pageChars !== null;
}

/**
 * Why the draft does not fit, naming the largest file where the rest fits without it; null when it fits.
 * `inspectionOf` gives what main read of a file (whether it has pages to choose from). `chat`: the message goes into
 * a chat whose room Make room… can make, with main's plan for it once known (the ways it offers).
 */
export function tooLongReason(state: WindowState, words: ReasonWords): string | null {
  return reasonOf(state, words)?.text ?? null;
}

/**
 * Whether the reason names the ways main's plan offers ("Make room… offers to …"): it is said shorter until the plan
 * comes, and the composer announces it once, in its final words.
 */
export function reasonNamesPlan(state: WindowState, words: ReasonWords): boolean {
  return reasonOf(state, words)?.namesPlan === true;
}

export interface ReasonWords {
  modelName: string | null;
  empty: boolean;
  inspectionOf: (b: AttachmentBlock) => AttachmentInspection | undefined;
  chat?: { plan: RoomPlan | null };
  /**
   * In a new chat (no `chat`), the larger window offered beside the words (LargerWindowOffer), null until main's plan
   * comes: there is no Make room… there, so the reason names only what is on screen (the message, this offer).
   */
  larger?: LargerWindow | null;
  /**
   * Said on a phone, in two lines or so: the meter beside it shows the estimate and the window, and the model is named
   * in the picker above, so the reason says by how much it is over and what to do. At 390 px the long words ran to
   * four lines under the box, with the meter's and the larger window's (composer.css hides those there).
   */
  short?: boolean;
}

function reasonOf(state: WindowState, words: ReasonWords): { text: string; namesPlan?: true } | null {
  const { window, estimate, ratio } = state;
  if (fitsWindow(estimate, window)) return null;
  const model = words.modelName ?? 'this model';
  // Written as a pair: "8K … holds 8K" hid that 8,192 does not fit a window of 8,192 (context audit #3).
  const [used, holds] = tokenPairParts(estimate, window);
  const wide = words.empty ? `This conversation is longer than ${model}'s window: about ${used} tokens, its window holds ${holds}.` : `Too long for ${model}: about ${used} tokens, its window holds ${holds}.`;
  const over = overBy(estimate - window + 1);
  const head = words.short ? (words.empty ? `This chat is over its window by ${over}.` : `Too long by ${over}.`) : wide;
  // The chat's tools go with every message: where they are a large part of it (a quarter, as a refusal card counts
  // them: system-turns.ts toolsTakeMuch) and the rest would fit without them, "Make room in the chat" sent the user to
  // cut a chat that was not what filled the window. A long chat with a few tools is still told to make room in it.
  const tools = state.tools ?? 0;
  if (tools > 0 && tools * 4 >= estimate && fitsWindow(estimate - tools, window)) {
    // On a phone the larger window is Make room…'s (beside the words) or the offer's (under them): not said again.
    if (words.short) return { text: `Too long by ${over}; tools take ${formatExactTokens(tools)}. Turn some off in Settings → Tools.` };
    return { text: `${head} The tools this chat offers take about ${formatExactTokens(tools)} tokens of the window: turn some off in Settings → Tools, or choose a larger window.` };
  }
  const largest = [...state.items].filter((i) => i.block.kind !== 'image').sort((a, b) => b.tokens - a.tokens)[0];
  const room = largest && roomsFor(state).get(largest.block);
  const needs = largest ? toWindowScale(largest.tokens, ratio) : 0;
  if (largest && room && room.inWindow > 0 && needs > room.inWindow) {
    const name = largest.block.name;
    const way = wayOn(largest.block, room, words.inspectionOf(largest.block), words.chat !== undefined, words.short === true);
    // On a phone beside Make room…, about 34 letters a line: how much the file is over, and what to do with it.
    if (words.short) return { text: `${name} is ${over.replace(/^about /, '')} over: ${way}` };
    return { text: `${name} needs about ${formatTokens(needs)} tokens; ${formatTokens(room.inWindow)} are left in the ${formatTokens(window)}-token window. ${way}` };
  }
  // A short message after a long chat was told "shorten the message", which could not make it fit: the chat before
  // it is what fills the window, and room is made there.
  const attachedTokens = state.items.reduce((sum, i) => sum + toWindowScale(i.tokens, ratio), 0);
  // Removing attachments is advice only where some are waiting and counted, and they are most of the draft: it said
  // so of a message with none.
  const attached = state.items.some((i) => i.tokens > 0) && (state.message === undefined || attachedTokens >= state.message);
  if (!words.chat) return { text: `${head} ${newChatWays(words, attached)}` };
  if (words.empty) return { text: `${head} Make room to go on.` };
  if (state.message !== undefined) {
    const draft = state.message + attachedTokens;
    if (fitsWindow(draft, window) && estimate - draft >= draft) {
      // On a phone Make room… is beside the words: they need not list what it offers.
      if (words.short) return { text: `${head} The chat fills the window: make room in it.` };
      return { text: `${head} Your message would fit on its own: the chat so far fills the window. ${chatWays(words.chat.plan)}`, namesPlan: true };
    }
  }
  return { text: `${head} ${attached ? 'Make room, or remove attachments.' : 'Make room, or shorten the message.'}` };
}

/** How much over the window, as the meter writes tokens: exact under a thousand, which "1K" would round away. */
function overBy(over: number): string {
  const n = Math.max(1, over);
  return `about ${n < 1000 ? formatExactTokens(n) : formatTokens(n)} ${n === 1 ? 'token' : 'tokens'}`;
}

/**
 * What can be done in a new chat: there is no Make room… (no chat yet to make room in), but the draft, and the larger
 * window offered beside the words. Where none can be had but the window is set elsewhere (an alias, llama-server's
 * -c), a phone says where in place of main's whole reason, which it does not show; a wide window shows that reason.
 */
function newChatWays(words: ReasonWords, attached: boolean): string {
  const larger = words.larger;
  const action = larger?.kind === 'none' && words.short ? larger.action : undefined;
  const own = words.empty ? null : attached ? 'Remove attachments' : 'Shorten the message';
  const other = larger?.kind === 'offer' ? 'use a larger window' : action;
  if (own === null) return other ? `To go on, ${other}.` : 'Choose a model with a larger window.';
  // On a phone the offer's button follows on the next line and finishes the sentence: one line for the words.
  if (words.short && larger?.kind === 'offer') return `${own === 'Shorten the message' ? 'Shorten it' : own}, or:`;
  return other ? `${own}, or ${other}.` : `${own}.`;
}

/** The ways Make room… offers for the chat before the message, as main's plan has them; the button alone until it is known. */
function chatWays(plan: RoomPlan | null): string {
  const ways = plan
    ? [
        ...(plan.cut ? ['summarize or leave out older messages'] : []),
        ...(plan.newChat ? ['continue in a new chat'] : []),
        ...(plan.larger.kind === 'offer' ? ['use a larger window'] : []),
      ]
    : [];
  const last = ways.pop();
  if (last === undefined) return 'Make room in the chat (Make room…).';
  return `Make room… offers to ${ways.length > 0 ? `${ways.join(', ')}, or ${last}` : last}.`;
}

/**
 * What to do about a file too long for what is left: pages only for a file that has them; "make room" only in a chat,
 * where Make room… is (a new chat has none). A phone says it shorter, Make room… beside the words.
 */
function wayOn(block: AttachmentBlock, room: Room, inspection: AttachmentInspection | undefined, inChat: boolean, short: boolean): string {
  const orRoom = inChat && !short ? ', or make room' : '';
  if (!hasPageChoice(inspection)) return short ? 'remove it or attach part of it.' : `Remove it or attach a shorter part of it${orRoom}.`;
  if (pagesThatFit(block.name, inspection.pageChars, room.forPages) === null) return short ? 'not even its first page fits. Remove it.' : inChat ? 'Not even its first page fits: make room, or remove it.' : 'Not even its first page fits: remove it.';
  return short ? 'choose pages that fit, under its chip.' : `Choose pages that fit (under its chip)${orRoom}.`;
}
