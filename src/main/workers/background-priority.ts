import { readdirSync } from 'node:fs';
import { constants, setPriority } from 'node:os';

/**
 * Gives the whole calling process the lowest CPU priority, nice 19: a process doing background work (the document
 * reader, ../documents/extract-process.ts) whose every thread, its garbage collector's helpers included, gives way
 * to the interactive work (main carrying an answer, the renderer painting it) on a busy machine, and still gets
 * every cycle nobody else wants.
 *
 * On Linux a nice value belongs to a thread (setpriority on a thread id changes only that thread), so each thread
 * of the process is lowered; threads started later inherit it from the thread that starts them. On macOS
 * setpriority covers the process, and on Windows the lowest priority is the process's idle class. Best effort: a
 * thread that refuses (or ended meanwhile) keeps its priority.
 */
export function lowerThisProcessPriority(): void {
  const low = constants.priority.PRIORITY_LOW;
  let threads: number[] = [process.pid];
  if (process.platform === 'linux') {
    try {
      threads = readdirSync('/proc/self/task').map(Number).filter((tid) => Number.isSafeInteger(tid) && tid > 0);
    } catch {
      // A sandbox that hides /proc: at least the main thread.
    }
  }
  for (const tid of threads) {
    try {
      setPriority(tid, low);
    } catch {
      // Best effort.
    }
  }
}
