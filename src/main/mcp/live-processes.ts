/**
 * Every stdio server's process group still running, so an exiting app can end them all. Apart from the
 * transport so the manager can install the exit hook without loading the SDK (see mcp-errors.ts).
 */
export const liveGroups = new Set<{ killNow(): void }>();
let exitHookInstalled = false;

/**
 * Ends every server's process group when this process exits, however it exits normally (quit, `process.exit`
 * after a signal): a polite stop started by `close()` may not have finished, and nothing may outlive the app.
 */
export function killAllOnExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const t of liveGroups) t.killNow();
  });
}
