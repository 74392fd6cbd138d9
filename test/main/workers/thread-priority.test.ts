/**
 * A worker doing background work (document extraction) runs at the lowest CPU priority on Linux, so a
 * streaming answer gets the cores first on a busy machine (bench/extraction); main's own priority is untouched.
 */
import { readlinkSync } from 'node:fs';
import { getPriority } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';

const MODULE = pathToFileURL(new URL('../../../src/main/workers/thread-priority.ts', import.meta.url).pathname).href;

describe.runIf(process.platform === 'linux')('a background worker thread', () => {
  it('lowers its own priority and only its own', async () => {
    const code = `
      const { parentPort } = require('node:worker_threads');
      const { readlinkSync } = require('node:fs');
      const { getPriority } = require('node:os');
      import('tsx/esm/api').then((api) => api.tsImport(${JSON.stringify(MODULE)}, ${JSON.stringify(import.meta.url)})).then((m) => {
        const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
        const before = getPriority(tid);
        m.lowerThisThreadsPriority();
        parentPort.postMessage({ tid, before, after: getPriority(tid) });
      });`;
    const mainTid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    const mainBefore = getPriority(mainTid);
    const seen = await new Promise<{ tid: number; before: number; after: number }>((resolve, reject) => {
      const w = new Worker(code, { eval: true });
      w.once('message', (m) => {
        resolve(m as { tid: number; before: number; after: number });
        void w.terminate();
      });
      w.once('error', reject);
    });
    // Nice 19, the lowest.
    expect(seen.after).toBe(19);
    expect(mainTid).not.toBe(seen.tid);
    expect(getPriority(mainTid)).toBe(mainBefore);
  });
});
