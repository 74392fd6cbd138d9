/**
 * Why a new message may not go into a conversation now: each refusal is a sentence for the user, thrown before
 * anything is written, so the message they typed stays in the composer.
 */
import { UserFacingError } from '../errors';
import type { ChatServiceDeps } from './chat-service-deps';

/**
 * The approval policy (README): while a run waits for the user's answer to a tool approval, nothing new is sent
 * in that conversation. A second run would hang its message under the pending card, and the old run, once
 * allowed, would carry on in a branch the user had left. Answering the card or Stop ends the wait.
 */
export function refuseWhileApprovalWaits(deps: Pick<ChatServiceDeps, 'busyReason' | 'engine'>, conversationId: string): void {
  const busy = deps.busyReason?.(conversationId);
  if (busy) throw new UserFacingError('forbidden', busy);
  if (!deps.engine.approvals.waitingIn(conversationId)) return;
  throw new UserFacingError(
    'forbidden',
    'This chat is waiting for your answer to a tool request: allow or deny it on its card, or press Stop. Then send again; your message is kept.',
  );
}

/**
 * One answer at a time in a conversation. The UI offers Stop instead of Send while one is on its way, but another
 * window on the same chat (serve mode opened in two tabs) does not know: its message went under the answer still
 * streaming, the model got both messages as one with no answer between them, and each tab showed another branch.
 * `answering`: how many answers are on their way in each conversation. Refused as 'busy': the page then clears
 * its notice by itself once that answer ends (chat:answer-ended), the message still in its box.
 */
export function refuseWhileAnswering(answering: ReadonlyMap<string, number>, conversationId: string): void {
  if (!answering.has(conversationId)) return;
  throw new UserFacingError(
    'busy',
    'An answer is still being written in this chat (perhaps in another window): wait for it to finish, or press Stop. Then send again; your message is kept.',
  );
}
