import { readFileSync } from 'node:fs';

/**
 * The fields of a Linux `/proc/.../stat` file after the command name, so that `fields[0]` is the state (field 3 in
 * proc(5)): the name (field 2) may hold spaces and parentheses, so fields are counted after its closing one. Null
 * where the file cannot be read (not Linux, a hidden /proc, the process gone). `path` is e.g. `/proc/self/stat` or
 * `/proc/<pid>/task/<tid>/stat`.
 */
export function procStatFields(path: string): string[] | null {
  try {
    const stat = readFileSync(path, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** Indices into `procStatFields` (proc(5)'s field number less 3). */
export const STAT = { state: 0, session: 3, utime: 11, stime: 12, nice: 16 } as const;

/** Clock ticks per second of /proc's CPU times (USER_HZ): 100 on every Linux architecture Node runs on. */
const TICKS_PER_SECOND = 100;

/**
 * CPU time (user + system, ms) a process has used so far, from Linux's /proc/<pid>/stat, in 10 ms steps; null
 * where the system does not say (macOS, Windows, a hidden /proc) or the process is gone.
 */
export function processCpuMs(pid: number): number | null {
  if (process.platform !== 'linux') return null;
  const fields = procStatFields(`/proc/${pid}/stat`);
  if (!fields) return null;
  const ticks = Number(fields[STAT.utime]) + Number(fields[STAT.stime]);
  return Number.isFinite(ticks) ? (ticks * 1000) / TICKS_PER_SECOND : null;
}
