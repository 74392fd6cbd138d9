/**
 * Issue 15: work that grows with untrusted input runs in a worker thread, and a job can always be ended: by
 * the user's Stop or by its time limit, which terminate the thread. Errors written for the user cross the
 * thread boundary with their code and message.
 */
import { describe, expect, it } from 'vitest';
import { UserFacingError } from '../../../src/main/errors';
import { htmlToText } from '../../../src/main/tools/html-text';
import { runInWorker, WorkerJobError } from '../../../src/main/workers/run-in-worker';

const PAGE = '<html><head><title>Sky</title></head><body><h1>Why blue</h1><p>Rayleigh &amp; co.</p><ul><li>a</li></ul></body></html>';

describe('runInWorker', () => {
  it('gives the same text as the function run here', async () => {
    expect(await runInWorker('html-to-text', PAGE)).toBe(htmlToText(PAGE));
  });

  it('parses JSON bytes there', async () => {
    expect(await runInWorker('parse-json', new TextEncoder().encode('{"t":"invoke","id":1}'))).toEqual({ t: 'invoke', id: 1 });
  });

  it('ends a job on Stop, and on its time limit', async () => {
    const big = `<p>${'word '.repeat(2_000_000)}</p>`;
    const stop = new AbortController();
    const stopped = runInWorker('html-to-text', big, { signal: stop.signal });
    stop.abort();
    await expect(stopped).rejects.toMatchObject({ name: 'WorkerJobError', kind: 'aborted' });
    const late = await runInWorker('html-to-text', big, { timeoutMs: 1 }).catch((e: unknown) => e);
    expect(late).toBeInstanceOf(WorkerJobError);
    expect(late).toMatchObject({ kind: 'timeout' });
  });

  it('brings a message written for the user back as a UserFacingError', async () => {
    const err = await runInWorker('check-conversation-file', { text: '{not json', name: 'notes.txt' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserFacingError);
    expect(err).toMatchObject({
      code: 'invalid-payload',
      message: '“notes.txt” cannot be imported: it is not a conversation export; Firebrand imports the .firebrand.json files that Export and Export all save. Nothing was imported.',
    });
  });
});
