import { readdirSync, writeFileSync } from 'node:fs';
import { constants, setPriority } from 'node:os';
import { procStatFields, STAT } from './proc-stat';

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
 *
 * Linux with autogroups (sched_autogroup_enabled, common on desktops): nice values order threads only within one
 * autogroup, a session; between sessions the scheduler shares the CPU by group first. A browser showing serve mode
 * runs in its own session (Chromium under Playwright did: /proc/<pid>/autogroup), so a nice-19 reader in serve's
 * session still took a full share against the page. A reader that leads its own session (forked detached) also
 * lowers its autogroup to nice 19; one that shares a session (an Electron utilityProcess, beside the app's own
 * renderers) must not: that would lower the whole app.
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
  if (process.platform === 'linux') lowerOwnAutogroup();
}

/** Linux autogroups: the session's autogroup to nice 19, where this process leads its own session. */
function lowerOwnAutogroup(): void {
  try {
    const session = Number(procStatFields('/proc/self/stat')?.[STAT.session]);
    if (session === process.pid) writeFileSync('/proc/self/autogroup', '19');
  } catch {
    // No autogroups (the file is absent, or empty where the kernel has them off or the process sits in a cgroup of
    // its own, as in a container) or not allowed: the write changes nothing, and the threads' nice values still apply.
  }
}
