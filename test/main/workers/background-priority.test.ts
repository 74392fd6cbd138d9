/**
 * The document reader's process runs all of its threads at the lowest CPU priority on Linux, its garbage
 * collector's helpers included, so a streaming answer gets the cores first on a busy machine (bench/extraction);
 * main's own threads keep theirs. Where the kernel groups the CPU by session (autogroups), the reader leads a
 * session of its own and lowers that, and never the session it shares with the app.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ExtractionRunner } from '../../../src/main/documents/extraction-runner';
import { procStatFields, STAT } from '../../../src/main/workers/proc-stat';

/**
 * The nice value of each thread of a process (field 19 of /proc/<pid>/task/<tid>/stat). A thread that ends between
 * the listing and the read (a loader thread of the tsx child, say) has no stat left, and is not counted: CI read null.
 */
function threadNices(pid: number | 'self'): number[] {
  return readdirSync(`/proc/${pid}/task`).flatMap((tid) => {
    const fields = procStatFields(`/proc/${pid}/task/${tid}/stat`);
    return fields ? [Number(fields[STAT.nice])] : [];
  });
}

/** "/autogroup-N nice K" → K. */
const autogroupNice = (pid: number | 'self') => Number(/nice (-?\d+)/.exec(readFileSync(`/proc/${pid}/autogroup`, 'utf8'))![1]);
// The file can exist and be empty: a kernel booted with autogroups off, or a process in a cgroup of its own (a CI
// container), has no autogroup to show; nice values alone order its threads there.
const autogroups = existsSync('/proc/self/autogroup') && /nice -?\d+/.test(readFileSync('/proc/self/autogroup', 'utf8'));

describe.runIf(process.platform === 'linux')('the document reader process', () => {
  it('runs every one of its threads at nice 19, and main keeps its priority', async () => {
    const mainBefore = threadNices('self');
    const runner = new ExtractionRunner();
    try {
      expect(await runner.run('html', new TextEncoder().encode('<p>one</p>'), 'one.html')).toMatchObject({ ok: true });
      const [pid] = runner.readerPids;
      const nices = threadNices(pid!);
      // Node's own threads (V8's platform workers, libuv's) besides the main one.
      expect(nices.length).toBeGreaterThan(3);
      expect(new Set(nices)).toEqual(new Set([19]));
      expect(threadNices('self').filter((n) => n === 19)).toEqual(mainBefore.filter((n) => n === 19));
    } finally {
      await runner.close();
    }
  });

  it.runIf(autogroups)('leads its own session, whose autogroup it lowers to nice 19; the app’s autogroup is untouched', async () => {
    const appBefore = autogroupNice('self');
    const runner = new ExtractionRunner();
    try {
      expect(await runner.run('html', new TextEncoder().encode('<p>one</p>'), 'one.html')).toMatchObject({ ok: true });
      const [pid] = runner.readerPids;
      expect(Number(procStatFields(`/proc/${pid}/stat`)![STAT.session])).toBe(pid);
      expect(autogroupNice(pid!)).toBe(19);
      expect(autogroupNice('self')).toBe(appBefore);
    } finally {
      await runner.close();
    }
  });

  it.runIf(autogroups)('does not lower the autogroup of a session it shares (an Electron utilityProcess beside the app)', async () => {
    const appBefore = autogroupNice('self');
    const module = new URL('../../../src/main/workers/background-priority.ts', import.meta.url).pathname;
    const code = `import(${JSON.stringify(module)}).then((m) => { m.lowerThisProcessPriority(); process.send('lowered'); });`;
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', code], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    try {
      await new Promise<void>((resolve, reject) => {
        child.once('message', () => resolve());
        child.once('exit', (c) => reject(new Error(`the child ended (${c}) before lowering itself`)));
      });
      expect(threadNices(child.pid!)).toContain(19);
      expect(autogroupNice(child.pid!)).toBe(appBefore);
    } finally {
      child.kill();
    }
  });
});
