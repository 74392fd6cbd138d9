/**
 * What the Copy buttons (an answer, a code block) copy with. The async clipboard API exists only in a secure
 * context: serve mode opened by a LAN address (http://192.168.x.y, README "Serve mode") has none, and a browser may
 * refuse it. Then the text is copied the older way, from a selected off-screen textarea, which any page may do
 * during the user's click. When neither works the user is told, never left with a button that did nothing.
 */
import { REFUSED, showNotice } from './store';

export const COPY_REFUSED = 'Firebrand could not copy: this browser refused the clipboard. Select the text and copy it yourself.';

/** Resolves whether the text was copied; when it was not, the notice banner says so. */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Refused (permission, focus): the older way may still be allowed.
  }
  if (copyBySelection(text)) return true;
  showNotice(COPY_REFUSED, REFUSED);
  return false;
}

function copyBySelection(text: string): boolean {
  const focused = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const area = document.createElement('textarea');
  area.value = text;
  area.readOnly = true;
  area.tabIndex = -1;
  area.setAttribute('aria-hidden', 'true');
  // Set through the CSSOM (a style attribute would meet the CSP): in the page, unseen, and not scrolled to.
  Object.assign(area.style, { position: 'fixed', top: '0', left: '0', width: '1px', height: '1px', opacity: '0', pointerEvents: 'none' });
  document.body.append(area);
  let copied = false;
  try {
    area.select();
    copied = document.execCommand('copy');
  } catch {
    copied = false;
  } finally {
    area.remove();
    focused?.focus({ preventScroll: true });
  }
  return copied;
}
