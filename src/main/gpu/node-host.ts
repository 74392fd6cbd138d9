/**
 * The real machine behind the probe: execFile (no shell) with a timeout, and fs reads that never throw.
 */
import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access, readdir, readFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import type { CommandResult, ProbeHost } from './types';

export async function runCommand(command: string, args: string[], timeoutMs: number): Promise<CommandResult> {
  if (!(await mayExist(command))) return { ok: false, stdout: '' };
  return new Promise((resolve) => {
    execFile(command, args, { timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 1024 * 1024, windowsHide: true }, (err, stdout) => {
      resolve({ ok: !err, stdout: String(stdout) });
    });
  });
}

/**
 * False when a bare command name is on no PATH folder, so no process is started only to fail: starting one forks
 * this process, which holds its event loop for milliseconds (tens on a busy machine), and the probe asks for
 * nvidia-smi and rocm-smi on every start and every out-of-room plan, most machines having one or neither
 * (bench/long-chat: the first open waited on them). Windows (PATHEXT) and paths are left to execFile.
 */
async function mayExist(command: string): Promise<boolean> {
  if (process.platform === 'win32' || command.includes('/')) return true;
  const dirs = (process.env.PATH ?? '').split(delimiter).filter((d) => d !== '');
  const found = await Promise.all(dirs.map((d) => access(join(d, command), constants.X_OK).then(() => true, () => false)));
  return found.includes(true);
}

/**
 * `FIREBRAND_GPU_PROBE_TIMEOUT_MS`: how long each GPU tool may take (default 3 s). nvidia-smi can take longer
 * than that on a machine whose driver is not kept loaded (no persistence mode), and a test holds the probe open.
 */
function timeoutFromEnv(): number | undefined {
  const ms = Number(process.env.FIREBRAND_GPU_PROBE_TIMEOUT_MS);
  return Number.isInteger(ms) && ms > 0 ? ms : undefined;
}

export function nodeProbeHost(): ProbeHost {
  const timeoutMs = timeoutFromEnv();
  return {
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    platform: process.platform,
    run: runCommand,
    readFile: (path) => readFile(path, 'utf8').catch(() => null),
    listDir: (path) => readdir(path).catch(() => []),
  };
}
