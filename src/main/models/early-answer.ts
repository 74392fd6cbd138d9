/**
 * An answer asked for before anyone needs it, handed to the first who asks soon after. The model list is the one
 * answer a page waits on before a message can be sent, and asking the server for it (Ollama: the tags, then each
 * model's details) took 26-82 ms after the page's request on a busy 2-core machine, after the page had already
 * drawn the rest (bench/start). Services ask for it as they start, while the browser is still opening the page.
 *
 * Only the first ask gets it, only while fresh and only for the same server: any later ask (a reload, a
 * connection change, the server's list changing) asks the server again, as before. A failed early ask is not
 * kept: the page's ask then tries again itself, so a server that came up meanwhile is seen.
 */
export interface EarlyAnswer<T> {
  /** The early answer if it is still good for `key` (and not taken yet), else null. */
  take(key: string): Promise<T> | null;
  /** Something changed that the early answer did not see: it is dropped. */
  forget(): void;
}

export function earlyAnswer<T>(ask: () => Promise<T>, key: string, opts: { now: () => number; freshMs: number }): EarlyAnswer<T> {
  let kept: { key: string; at: number; answer: Promise<T> } | null = { key, at: opts.now(), answer: ask() };
  let failed = false;
  kept.answer.catch(() => (failed = true));
  return {
    take(current) {
      const k = kept;
      kept = null;
      if (!k || failed || k.key !== current || opts.now() - k.at > opts.freshMs) return null;
      // Still in flight: if it fails after all, this ask is made again rather than failing with a stale reason.
      return k.answer.catch(() => ask());
    },
    forget() {
      kept = null;
    },
  };
}
