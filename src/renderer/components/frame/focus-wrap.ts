import type { KeyboardEvent } from 'react';

const FOCUSABLE = 'button:not(:disabled), input:not(:disabled), select:not(:disabled), textarea:not(:disabled), a[href], summary, [tabindex]:not([tabindex="-1"])';

/**
 * Tab past the last control of a modal surface (a dialog, the phone's drawer) comes back to its first, and
 * Shift+Tab before the first goes to its last: the page behind is inert, so the focus would otherwise leave for
 * the browser's bar.
 */
export function keepTabInside(container: HTMLElement, e: KeyboardEvent): void {
  if (e.key !== 'Tab') return;
  const focusable = [...container.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.checkVisibility());
  const first = focusable[0];
  const last = focusable.at(-1);
  if (!first || !last) return;
  if (!e.shiftKey && document.activeElement === last) {
    e.preventDefault();
    first.focus();
  } else if (e.shiftKey && document.activeElement === first) {
    e.preventDefault();
    last.focus();
  }
}
