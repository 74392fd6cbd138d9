/**
 * The composer's window and room (Composer.tsx): what is left of the window for each waiting file, whether the draft
 * or the chat alone is over it, main's plan for making room, and the reason under the message box.
 */
import { useEffect } from 'react';
import { fitsWindow } from '../../../shared/context-estimate';
import type { AttachmentInspection } from '../../../shared/ipc';
import type { AttachmentBlock } from '../../../shared/turn';
import { refreshContextChoice } from '../../store';
import { useRoom } from '../../store/context-room';
import { PHONE, useMediaQuery } from '../../hooks/use-media';
import { useRoomPlan } from '../context/use-room-plan';
import { reasonNamesPlan, roomsFor, tooLongReason } from './window-room';

export interface WindowRoomInput {
  /** Whether main has said the window (until then nothing is refused on a guess). */
  known: boolean;
  window: number;
  /** The meter's estimate of the request, the draft included (window scale). */
  estimate: number;
  ratio: number;
  items: readonly AttachmentBlock[];
  /** A waiting attachment's chip count (not scaled). */
  cost: (b: AttachmentBlock) => number | undefined;
  /** The draft's text (window scale), and all of it with its files. */
  draftText: number;
  draftTokens: number;
  /** The tool definitions in main's measure of the request (window scale); absent where none or not measured. */
  tools?: number | undefined;
  empty: boolean;
  inspectionOf: (b: AttachmentBlock) => AttachmentInspection | undefined;
  activeId: string | null;
  selected: string | null;
  selectedName: string | null;
  streaming: boolean;
  /** The measure's identity: the plan is asked again when it changes. */
  measureKey: string | null;
}

export function useWindowRoom(input: WindowRoomInput) {
  const { known, window, estimate, activeId, selected, streaming } = input;
  // What is left of the window for each waiting file, and the reason naming the largest (window-room.ts).
  const windowState = { window, estimate, ratio: input.ratio, items: input.items.map((b) => ({ block: b, tokens: input.cost(b) ?? 0 })), message: input.draftText, tools: input.tools };
  const rooms = roomsFor(windowState);
  const overWindow = known && !fitsWindow(estimate, window);
  // The chat alone, without the draft: an answer's Continue (which sends a short message of its own) waits on it.
  const chatFull = known && !fitsWindow(estimate - input.draftTokens, window) && activeId !== null;
  useEffect(() => {
    useRoom.setState({ full: chatFull ? activeId : null });
  }, [chatFull, activeId]);
  // The red meter offers the same ways on as the refusal card, for the conversation with the draft added (issue 21).
  const roomOpen = useRoom((s) => s.open);
  const room = useRoomPlan(activeId, overWindow && !streaming && selected !== null, input.measureKey ?? '', input.draftTokens);
  const offer = room.state?.status === 'ready' ? room.state.plan.larger : null;
  // Over the window is said even with an empty draft: "Type a message" would send the user the wrong way (issues 17, 21).
  // In a chat, the reason names the ways Make room… offers (main's plan) where the chat, not the message, fills it.
  // In a new chat there is no Make room…: the reason names the larger window offered beside it instead, if any.
  const chatRoom = activeId === null ? { larger: offer } : { chat: { plan: room.state?.status === 'ready' ? room.state.plan : null } };
  // On a phone the reason is said in a phone's words: by how much, and what to do (window-room.ts).
  const short = useMediaQuery(PHONE);
  const reasonWords = { modelName: input.selectedName, empty: input.empty, inspectionOf: input.inspectionOf, short, ...chatRoom };
  const overReason = !overWindow ? null : tooLongReason(windowState, reasonWords);
  // Until that plan comes the reason says "Make room in the chat (Make room…)", then the ways: shown as it is, but
  // announced once, in its final words (a screen reader heard both).
  const planPending = activeId !== null && room.state?.status !== 'ready' && room.state?.status !== 'failed' && overWindow && !streaming && selected !== null;
  const reasonPending = planPending && overReason !== null && reasonNamesPlan(windowState, reasonWords);
  // About to refuse on the window: make sure it is the server's window now, not the one read at load (a
  // llama-server restarted with a larger -c would otherwise be refused a message that fits; issue 13).
  useEffect(() => {
    if (overWindow) void refreshContextChoice();
  }, [overWindow]);
  return { rooms, overWindow, roomOpen, room, offer, overReason, reasonPending };
}
