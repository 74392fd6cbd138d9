/**
 * Round 10: a file attached on a full disk failed with "The disk is full, so this was not saved", which named no
 * file (with several picked at once, the user could not tell which were left out). On a real full disk (a tmpfs
 * filled to 0 bytes free: mounting needs root, so without it this prints why and does not run).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BlobStore } from '../../../src/main/blobs/blob-store';
import { openDatabase } from '../../../src/main/db/open-database';
import { UserFacingError } from '../../../src/main/errors';
import { mountSmallDisk, smallDiskUnavailable } from '../../support/small-disk';
import { PNG } from './fixtures';

const unavailable = smallDiskUnavailable();
if (unavailable) console.log(`Full-disk attachment tests not run: ${unavailable}.`);

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

describe.runIf(unavailable === undefined)('attaching a file on a full disk', () => {
  it('is refused with a message that names the file and says the disk is full, and attaches once there is room', async () => {
    const disk = mountSmallDisk(4);
    cleanups.push(() => disk.unmount());
    const dataDir = join(disk.dir, 'data');
    mkdirSync(dataDir);
    const db = openDatabase(join(dataDir, 'firebrand.db'));
    cleanups.unshift(() => db.close());
    const blobs = new BlobStore(db, join(dataDir, 'blobs'));
    const text = new TextEncoder().encode('Wombats dig burrows.\n'.repeat(2000));
    disk.fill();
    expect(disk.free()).toBe(0);

    const refused = await blobs.put(text, { name: 'wombats.txt', mime: 'text/plain' }, 1).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(UserFacingError);
    expect((refused as Error).message).toBe('“wombats.txt” was not attached: the disk is full. Free some space, then press Retry to attach it again.');
    const image = await blobs.put(PNG, { name: 'burrow.png', mime: 'image/png' }, 1).catch((err: unknown) => err);
    expect((image as Error).message).toMatch(/^“burrow\.png” was not attached: the disk is full/);

    disk.empty();
    const block = await blobs.put(text, { name: 'wombats.txt', mime: 'text/plain' }, 2);
    expect(block).toMatchObject({ name: 'wombats.txt', size: text.byteLength });
    expect(Buffer.from(blobs.read(block.id)!)).toEqual(Buffer.from(text));
  });
});
