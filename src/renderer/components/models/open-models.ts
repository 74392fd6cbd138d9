/**
 * Opens the model manager from anywhere (a shortcut, a banner): the sidebar's Models button owns the screen and
 * gives the focus back to itself when it closes, so the way in is always that button.
 */
export function openModelsScreen(): void {
  document.querySelector<HTMLElement>('[data-testid="models-open"]')?.click();
}
