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

export function nodeProbeHost(): ProbeHost {
  return {
    platform: process.platform,
    run: runCommand,
    readFile: (path) => readFile(path, 'utf8').catch(() => null),
    listDir: (path) => readdir(path).catch(() => []),
  };
}
