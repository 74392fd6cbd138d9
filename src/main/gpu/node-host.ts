/**
 * The real machine behind the probe: execFile (no shell) with a timeout, and fs reads that never throw.
 */
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import type { CommandResult, ProbeHost } from './types';

export function runCommand(command: string, args: string[], timeoutMs: number): Promise<CommandResult> {
  return new Promise((resolve) => {
    execFile(command, args, { timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 1024 * 1024, windowsHide: true }, (err, stdout) => {
      resolve({ ok: !err, stdout: String(stdout) });
    });
  });
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
