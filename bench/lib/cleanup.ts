/**
 * Every server, child process and browser a benchmark starts is registered here and stopped in reverse order,
 * on success, on a thrown error and on SIGINT/SIGTERM (bench/run.mjs kills a benchmark that overruns), so a
 * failed run leaves nothing behind on a machine shared with other work.
 */
export class Cleanup {
  private readonly tasks: { label: string; task: () => Promise<unknown> | unknown }[] = [];

  add(label: string, task: () => Promise<unknown> | unknown): void {
    this.tasks.push({ label, task });
  }

  async run(): Promise<void> {
    for (let next = this.tasks.pop(); next; next = this.tasks.pop()) {
      try {
        // A stop that hangs must not keep the others from running.
        await Promise.race([next.task(), new Promise((r) => setTimeout(r, 10_000))]);
      } catch (err) {
        console.error(`cleanup ${next.label}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }
}

/** Runs `main` with a Cleanup that always runs; a signal runs it too and exits. */
export async function withCleanup(main: (cleanup: Cleanup) => Promise<void>): Promise<void> {
  const cleanup = new Cleanup();
  const onSignal = (signal: NodeJS.Signals) => {
    void cleanup.run().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    await main(cleanup);
  } finally {
    await cleanup.run();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
