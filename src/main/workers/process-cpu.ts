import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's CPU times (USER_HZ): 100 on every Linux architecture Node runs on. */
const TICKS_PER_SECOND = 100;

/**
 * CPU time (user + system, ms) a process has used so far, from Linux's /proc/<pid>/stat, in 10 ms steps; null
 * where the system does not say (macOS, Windows, a hidden /proc) or the process is gone.
 */
export function processCpuMs(pid: number): number | null {
  if (process.platform !== 'linux') return null;
  try {
    // The command name (field 2) may hold spaces and parentheses: fields are counted after its closing one.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / TICKS_PER_SECOND : null;
  } catch {
    return null;
  }
}
