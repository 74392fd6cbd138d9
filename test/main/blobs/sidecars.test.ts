import { existsSync, readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { collect } from '../../../src/main/blobs/blob-gc';
import { BlobStore } from '../../../src/main/blobs/blob-store';
import { Sidecars } from '../../../src/main/blobs/sidecars';
import { memoryDb, tempDir, tick } from '../db/helpers';
import { PDF } from './fixtures';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

describe('sidecars', () => {
  it('keep derived files beside their blob, privately, and go with it when GC removes the blob', async () => {
    const { dir, cleanup } = tempDir('firebrand-sidecars-');
    cleanups.push(cleanup);
    const blobs = new BlobStore(memoryDb(), dir);
    const sidecars = new Sidecars((d) => blobs.pathOf(d));
    const put = tick();
    const block = await blobs.put(PDF, { name: 'r.pdf', mime: 'application/pdf' }, put);
    await sidecars.write(block.id, 'text-v1.json', new TextEncoder().encode('{"ok":true}'));
    expect(new TextDecoder().decode(sidecars.read(block.id, 'text-v1.json'))).toBe('{"ok":true}');
    expect(readdirSync(dirname(blobs.pathOf(block.id))).sort()).toEqual([block.id, `${block.id}.text-v1.json`]);
    expect(() => sidecars.path(block.id, '../escape')).toThrow();

    const removed = await collect(blobs, () => {}, { now: put + 10, graceMs: 0 }, (d) => sidecars.removeFor(d));
    expect(removed).toEqual([block.id]);
    expect(existsSync(sidecars.path(block.id, 'text-v1.json'))).toBe(false);
    expect(sidecars.read(block.id, 'text-v1.json')).toBeUndefined();
  });
});
