/**
 * Round 10: a model download into a models folder whose disk fills meanwhile (the free-space check passed; then
 * the chats, another program or the download itself took the room). On a real full disk (a tmpfs filled to 0 bytes
 * free: mounting needs root, so without it this prints why and does not run).
 */
import { createServer, type Server } from 'node:http';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DownloadProgress } from '../../../src/shared/library';
import { openDatabase } from '../../../src/main/db/open-database';
import { generateScriptedModel } from '../../support/scripted-gguf/generate';
import { SCRIPTS } from '../../support/scripted-gguf/scripts';
import { mountSmallDisk, smallDiskUnavailable, type SmallDisk } from '../../support/small-disk';
import { testDownloadManager } from './test-download-manager';

const unavailable = smallDiskUnavailable();
if (unavailable) console.log(`Full-disk download tests not run: ${unavailable}.`);

let bytes: Buffer;
beforeAll(() => {
  bytes = readFileSync(generateScriptedModel(SCRIPTS.plain));
});

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function serveModel(): Promise<{ url: string; gets: () => number }> {
  let gets = 0;
  const server: Server = createServer((req, res) => {
    const headers = { 'accept-ranges': 'bytes', etag: '"v1"', 'content-length': String(bytes.length) };
    if (req.method === 'HEAD') return void res.writeHead(200, headers).end();
    gets++;
    res.writeHead(200, headers).end(bytes);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanups.push(() => new Promise<void>((r) => server.close(() => r())));
  const a = server.address();
  return { url: `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}/models/scripted-plain.gguf`, gets: () => gets };
}

describe.runIf(unavailable === undefined)('a model download on a disk that fills', () => {
  it('stops at once saying the disk is full (at its start or midway), instead of retrying, and resumes once there is room', async () => {
    const disk: SmallDisk = mountSmallDisk(8);
    const db: Database.Database = openDatabase(join(disk.dir, 'firebrand.db'));
    cleanups.push(() => {
      db.close();
      disk.unmount();
    });
    const { url, gets } = await serveModel();
    const events: DownloadProgress[] = [];
    // The room was there when the download was checked; it is gone by its first write.
    const manager = testDownloadManager(join(disk.dir, 'models'), db, events, { freeDisk: () => Promise.resolve(1 << 30) });
    await manager.start(url);
    disk.fill();
    await expect.poll(() => events.at(-1)?.state, { timeout: 20_000 }).toBe('error');
    expect(events.at(-1)?.error).toMatch(/^The disk that holds the models folder .* is full, so the download of scripted-plain\.gguf stopped/);
    // Asking the source again cannot help until there is room.
    expect(gets()).toBeLessThanOrEqual(1);

    disk.empty();
    // Now room for the first MB only: the disk fills midway through the file.
    const midway = join(disk.dir, 'midway-filler');
    writeFileSync(midway, Buffer.alloc(disk.free() - (1 << 20)));
    const before = gets();
    await manager.start(url);
    await expect.poll(() => events.at(-1)?.error ?? '', { timeout: 20_000 }).toMatch(/is full, so the download of scripted-plain\.gguf stopped; what arrived is kept/);
    expect(gets() - before).toBe(1);
    const part = join(disk.dir, 'models', 'scripted-plain.gguf.part');
    expect(statSync(part).size).toBeGreaterThan(0);

    rmSync(midway);
    await manager.start(url);
    await expect.poll(() => [events.at(-1)?.state, events.at(-1)?.error], { timeout: 20_000 }).toEqual(['done', undefined]);
  });
});
