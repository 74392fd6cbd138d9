/**
 * Background work on the database done a slice per turn of the event loop, so answers streaming meanwhile wait at
 * most a slice (a few ms: rechunk-bodies.ts, search-merge.ts). The timers keep no process alive.
 */
import type { Database } from 'better-sqlite3';

export interface SlicedWork {
  /** One slice; true once nothing is left. May throw (a full disk): the work then stops, and `failed` is told. */
  slice(): boolean;
  /** Nothing is left. Not called when the database closed first. */
  done(): void;
  failed(err: unknown): void;
}

/** Runs `work` from the next turn of the loop (or `delayMs` from now) until it is done, fails or the database closes. */
export function runInSlices(db: Database, work: SlicedWork, delayMs?: number): void {
  const step = () => {
    if (!db.open) return;
    try {
      if (work.slice()) return work.done();
    } catch (err) {
      return work.failed(err);
    }
    setImmediate(step).unref();
  };
  if (delayMs === undefined) setImmediate(step).unref();
  else setTimeout(step, delayMs).unref();
}
