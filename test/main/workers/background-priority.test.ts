/**
 * The document reader's process runs all of its threads at the lowest CPU priority on Linux, its garbage
 * collector's helpers included, so a streaming answer gets the cores first on a busy machine (bench/extraction);
 * main's own threads keep theirs.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ExtractionRunner } from '../../../src/main/documents/extraction-runner';

/** The nice value of each thread of a process (field 19 of /proc/<pid>/task/<tid>/stat). */
function threadNices(pid: number | 'self'): number[] {
  return readdirSync(`/proc/${pid}/task`).map((tid) => {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}

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
});
