import { readlinkSync } from 'node:fs';
import { constants, setPriority } from 'node:os';

/**
 * Gives the calling thread the lowest CPU priority, nice 19 (a worker thread doing background work: reading a
 * 300-page PDF), so that on a busy machine the interactive work (main's event loop carrying an answer, the
 * renderer painting it) gets the cores first; the background job still gets every cycle nobody else wants. Linux only, where a thread
 * has its own nice value and `/proc/thread-self` names it (setpriority on a thread id changes only that thread);
 * elsewhere, or if anything refuses, the thread keeps the normal priority.
 */
export function lowerThisThreadsPriority(): void {
  if (process.platform !== 'linux') return;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isSafeInteger(tid) && tid > 0 && tid !== process.pid) setPriority(tid, constants.priority.PRIORITY_LOW);
  } catch {
    // Best effort: an older kernel or a sandbox that hides /proc.
  }
}
