import { existsSync, readdirSync, utimesSync } from 'node:fs';
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

  it('a sidecar left behind by a crash after its blob went is swept; one whose blob is kept stays', async () => {
    const { dir, cleanup } = tempDir('firebrand-sidecars-');
    cleanups.push(cleanup);
    const blobs = new BlobStore(memoryDb(), dir);
    const sidecars = new Sidecars((d) => blobs.pathOf(d));
    // Just attached: inside the grace period, so GC keeps it and its sidecar, though no message holds it yet.
    const kept = await blobs.put(PDF, { name: 'kept.pdf', mime: 'application/pdf' }, Date.now());
    await sidecars.write(kept.id, 'text-v1.json', new TextEncoder().encode('{"text":"kept"}'));
    // A deleted chat's document: its blob and row went, then Firebrand was killed before its extracted text did.
    const gone = 'f'.repeat(64);
    await sidecars.write(gone, 'text-v1.json', new TextEncoder().encode('{"text":"private"}'));
    const old = new Date(Date.now() - 2 * 3600_000);
    for (const d of [kept.id, gone]) utimesSync(sidecars.path(d, 'text-v1.json'), old, old);

    await blobs.gc({ now: Date.now() });
    expect(existsSync(sidecars.path(gone, 'text-v1.json'))).toBe(false);
    expect(existsSync(sidecars.path(kept.id, 'text-v1.json'))).toBe(true);
    expect(existsSync(blobs.pathOf(kept.id))).toBe(true);
  });
});
