/**
 * Background work on the database done a slice per turn of the event loop (rechunk-bodies.ts, search-merge.ts,
 * free-space.ts's release of freed pages). None of it runs while an answer streams (round 7): a slice held main's
 * thread for a few ms between two writes of the answer, and a user watching the answer gains nothing from the
 * work. It waits, and goes on once no answer streams. The timers keep no process alive.
 */
import type { Database } from 'better-sqlite3';

export interface SlicedWork {
  /** One slice; true once nothing is left. May throw (a full disk): the work then stops, and `failed` is told. */
  slice(): boolean;
  /** Nothing is left. Not called when the database closed first. */
  done(): void;
  failed(err: unknown): void;
}

interface StreamState {
  answers: boolean;
  /** Steps of background work waiting for the answers to end. */
  waiting: (() => void)[];
}

const states = new WeakMap<Database, StreamState>();

function stateOf(db: Database): StreamState {
  let state = states.get(db);
  if (!state) states.set(db, (state = { answers: false, waiting: [] }));
  return state;
}

/** Told by the chat service whether any answer streams now: background work pauses while one does. */
export function setAnswersStreaming(db: Database, answers: boolean): void {
  const state = stateOf(db);
  state.answers = answers;
  if (answers) return;
  const waiting = state.waiting.splice(0);
  for (const step of waiting) setImmediate(step).unref();
}

/** Whether background work on `db` waits now. */
export function answersStreaming(db: Database): boolean {
  return states.get(db)?.answers ?? false;
}

/** Runs `step` on a later turn of the loop, once no answer streams. */
export function whenNoAnswerStreams(db: Database, step: () => void): void {
  if (answersStreaming(db)) stateOf(db).waiting.push(step);
  else setImmediate(step).unref();
}

/** Runs `work` from the next turn of the loop (or `delayMs` from now) until it is done, fails or the database closes. */
export function runInSlices(db: Database, work: SlicedWork, delayMs?: number): void {
  const step = () => {
    if (!db.open) return;
    // An answer began since this step was queued: it waits for the answers to end.
    if (answersStreaming(db)) return stateOf(db).waiting.push(step);
    try {
      if (work.slice()) return work.done();
    } catch (err) {
      return work.failed(err);
    }
    whenNoAnswerStreams(db, step);
  };
  if (delayMs === undefined) whenNoAnswerStreams(db, step);
  else setTimeout(step, delayMs).unref();
}
