/**
 * Puts the focus in the message box: where a keyboard user goes on after an action whose button goes away as it
 * acts (Regenerate, a tool approval, a removed attachment), and where Escape stops the answer that follows.
 */
export function focusComposer(): void {
  document.querySelector<HTMLElement>('[data-testid="composer-input"]')?.focus();
}

/** Opens the model picker with the focus in it: where a notice that the chosen model changed sends the user. */
export function openModelPicker(): void {
  const picker = document.querySelector<HTMLElement>('[data-testid="model-picker"]');
  picker?.focus();
  picker?.click();
}
