/**
 * Documents audit #3: a file whose reading timed out (a long PDF on a busy machine) or whose reader crashed kept that
 * failure for the life of the app: attached again, it failed again at once, without being read. Such a failure may
 * not repeat; a lasting one (password-protected, damaged, no text) is not read twice.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlobStore } from '../../../src/main/blobs/blob-store';
import { Sidecars } from '../../../src/main/blobs/sidecars';
import { openDatabase } from '../../../src/main/db/open-database';
import { AttachmentContent } from '../../../src/main/documents/attachment-content';
import type { ExtractionResult, ExtractionRunner } from '../../../src/main/documents/extraction-runner';
import type { ExtractionFailure } from '../../../src/shared/attachment-text';

let dir: string;
let db: ReturnType<typeof openDatabase>;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'firebrand-read-again-'));
  db = openDatabase(join(dir, 'db.sqlite'));
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A reader that fails the first time with `code`, then reads the file. */
function failingOnce(code: ExtractionFailure['code']): { runner: ExtractionRunner; runs: () => number } {
  let runs = 0;
  const run = (): Promise<ExtractionResult> => {
    runs++;
    if (runs === 1) return Promise.resolve({ ok: false, failure: { code, message: `Reading failed (${code}).` } });
    return Promise.resolve({ ok: true, doc: { format: 'pdf', pages: ['The minutes, read at last.'] } });
  };
  return { runner: { run } as unknown as ExtractionRunner, runs: () => runs };
}

async function setUp(code: ExtractionFailure['code']) {
  const blobs = new BlobStore(db, dir);
  const sidecars = new Sidecars((d) => blobs.pathOf(d));
  const reader = failingOnce(code);
  const content = new AttachmentContent({ blobs, sidecars, runner: reader.runner, now: () => 1, log: () => {} });
  const block = await blobs.put(Buffer.from('%PDF-1.7\n% a long PDF\n'), { name: 'minutes.pdf', mime: 'application/pdf' }, 1);
  return { content, block, runs: reader.runs };
}

describe('a document whose reading failed', () => {
  it.each(['timeout', 'failed'] as const)('is read again when asked again after a %s', async (code) => {
    const { content, block, runs } = await setUp(code);
    expect((await content.inspect(block, { anthropic: false })).error).toBe(`Reading failed (${code}).`);
    const again = await content.inspect(block, { anthropic: false });
    expect(again.error).toBeNull();
    expect(again.pageCount).toBe(1);
    expect(await content.preview(block)).toContain('The minutes, read at last.');
    expect(runs()).toBe(2);
  });

  it('is not read again when it failed for what the file is (password-protected)', async () => {
    const { content, block, runs } = await setUp('encrypted');
    await content.inspect(block, { anthropic: false });
    expect((await content.inspect(block, { anthropic: false })).error).toBe('Reading failed (encrypted).');
    expect(runs()).toBe(1);
  });
});
