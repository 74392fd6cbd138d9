/**
 * The user's answer to a tool call's approval card, sent to main. One that does not land (main restarting, the
 * socket dropped) is told in the notice, whose Retry sends the same answer for the same call again.
 */
import type { InvokeRequest } from '../../shared/ipc';
import { firebrand } from '../firebrand';
import { fail } from './app-state';

export type ToolDecisionRequest = InvokeRequest<'chat:approve-tool'>;

/** Sends `req`; `landed` runs once it has (the first time, or at a Retry). True when it landed now. */
export async function decideTool(req: ToolDecisionRequest, landed: () => void): Promise<boolean> {
  try {
    await firebrand().chat.approveTool(req);
    landed();
    return true;
  } catch (err) {
    fail(err, () => void decideTool(req, landed));
    return false;
  }
}
