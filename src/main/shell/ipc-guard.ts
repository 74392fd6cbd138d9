/**
 * The shell's two security decisions as pure functions, so they are unit tested without Electron (DESIGN.md
 * §8): which IPC sender frames may call the contract, and which links may leave the app. It imports nothing
 * from electron: the frame check needs only object identity and a URL.
 */
import type { IpcResult } from '../../shared/ipc';
import type { Dispatcher } from '../ipc/dispatch';

/** The origin the shell serves the renderer from (`protocol.handle('app', …)`). */
export const APP_ORIGIN = 'app://firebrand';

/** What the frame check needs from an `IpcMainInvokeEvent.senderFrame` / `webContents.mainFrame`. */
export interface FrameLike {
  readonly url: string;
}

/**
 * Whether an invoke comes from the app's own top-level document: the very main frame object of our window
 * (not a subframe, not another window) AND showing a page of our origin (not something the frame navigated
 * to). A frame that is gone (`null`, the page unloaded mid-call) is refused too.
 */
export function isAppFrame(senderFrame: FrameLike | null | undefined, mainFrame: FrameLike | null | undefined): boolean {
  if (!senderFrame || !mainFrame || senderFrame !== mainFrame) return false;
  return senderFrame.url.startsWith(`${APP_ORIGIN}/`);
}

/**
 * One invoke as the shell carries it: a call from any frame but the app's main frame is refused and logged
 * before the dispatcher (and so any handler) sees it; everything else goes to the dispatcher, which validates
 * the channel and payload.
 */
export function guardInvoke(
  call: { channel: string; payload: unknown; senderFrame: FrameLike | null | undefined; mainFrame: FrameLike | null | undefined },
  dispatcher: Dispatcher,
  log: (message: string) => void,
): Promise<IpcResult<unknown>> {
  if (!isAppFrame(call.senderFrame, call.mainFrame)) {
    log(`ipc: refused ${call.channel} from a frame that is not the app's main frame (${call.senderFrame?.url ?? 'gone'})`);
    return Promise.resolve({ ok: false, error: { code: 'forbidden', message: 'Refused.' } });
  }
  return dispatcher.dispatch(call.channel, call.payload);
}

/** What the shell does with a link the page tries to open: hand it to the system browser, or drop it. */
export type LinkDecision = { action: 'open-external'; url: string } | { action: 'deny' };

/**
 * Only absolute http(s) URLs leave the app, and only to the system browser; `javascript:`, `data:`, `file:`,
 * `app:`, custom schemes and anything that does not parse stay inside (and are dropped). The URL handed out is
 * the parsed one, so odd spellings (`HTTPS://`, stray whitespace) are normalised before the OS sees them.
 */
export function linkPolicy(raw: string): LinkDecision {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { action: 'deny' };
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') return { action: 'deny' };
  // Credentials in a link (`http://user:pass@host`) are a phishing trick, never something a chat needs.
  if (url.username !== '' || url.password !== '') return { action: 'deny' };
  return { action: 'open-external', url: url.href };
}
