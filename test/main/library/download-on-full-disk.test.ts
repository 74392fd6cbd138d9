/**
 * Round 10: a model download into a models folder whose disk fills meanwhile (the free-space check passed; then
 * the chats, another program or the download itself took the room). On a real full disk (a tmpfs filled to 0 bytes
 * free: mounting needs root, so without it this prints why and does not run). Round 11: a download leaves a margin
 * free there for the chats.
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

const MIB = 1024 ** 2;
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

/** The model over HTTP with Range; `statesSize` false: no length in any answer (the body ends when it ends). */
async function serveModel(): Promise<{ url: string; gets: () => number; ranges: (string | undefined)[]; statesSize: boolean }> {
  const served = { url: '', gets: () => ranges.length, ranges: [] as (string | undefined)[], statesSize: true };
  const { ranges } = served;
  const server: Server = createServer((req, res) => {
    const length = (n: number) => (served.statesSize ? { 'content-length': String(n) } : {});
    const headers = { 'accept-ranges': 'bytes', etag: '"v1"' };
    if (req.method === 'HEAD') return void res.writeHead(200, { ...headers, ...length(bytes.length) }).end();
    ranges.push(req.headers.range);
    const from = Number(/^bytes=(\d+)-$/.exec(req.headers.range ?? '')?.[1] ?? 0);
    if (from === 0) return void res.writeHead(200, { ...headers, ...length(bytes.length) }).end(bytes);
    res.writeHead(206, { ...headers, ...length(bytes.length - from), 'content-range': `bytes ${from}-${bytes.length - 1}/${bytes.length}` }).end(bytes.subarray(from));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanups.push(() => new Promise<void>((r) => server.close(() => r())));
  const a = server.address();
  served.url = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}/models/scripted-plain.gguf`;
  return served;
}

/** A real small disk with the chats' database on it, taken away after the test. */
function diskWithChats(): { disk: SmallDisk; db: Database.Database } {
  const disk = mountSmallDisk(8);
  const db = openDatabase(join(disk.dir, 'firebrand.db'));
  cleanups.push(() => {
    db.close();
    disk.unmount();
  });
  return { disk, db };
}

describe.runIf(unavailable === undefined)('a model download on a disk that fills', () => {
  it('stops at once saying the disk is full (at its start or midway), instead of retrying, and resumes once there is room', async () => {
    const { disk, db } = diskWithChats();
    const { url, gets } = await serveModel();
    const events: DownloadProgress[] = [];
    // The room was there when the download was checked; it is gone by its first write.
    const manager = testDownloadManager(join(disk.dir, 'models'), db, events, { diskSpace: () => Promise.resolve({ free: 1 << 30, size: 1 << 30 }) });
    await manager.start(url);
    disk.fill();
    await expect.poll(() => events.at(-1)?.state, { timeout: 20_000 }).toBe('error');
    // Nothing arrived: Resume asks again (it said "what arrived is kept" and "start it again to resume").
    expect(events.at(-1)?.error).toMatch(/^The disk that holds the models folder .* is full, so the download of scripted-plain\.gguf stopped\. Free some space, then Resume tries again\.$/);
    // Asking the source again cannot help until there is room.
    expect(gets()).toBeLessThanOrEqual(1);

    disk.empty();
    // Now room for the first MB only: the disk fills midway through the file.
    const midway = join(disk.dir, 'midway-filler');
    writeFileSync(midway, Buffer.alloc(disk.free() - (1 << 20)));
    const before = gets();
    await manager.start(url);
    await expect.poll(() => events.at(-1)?.error ?? '', { timeout: 20_000 }).toMatch(/is full, so the download of scripted-plain\.gguf stopped\. What arrived is kept: free some space, then Resume goes on from there\.$/);
    expect(gets() - before).toBe(1);
    const part = join(disk.dir, 'models', 'scripted-plain.gguf.part');
    expect(statSync(part).size).toBeGreaterThan(0);

    rmSync(midway);
    await manager.start(url);
    await expect.poll(() => [events.at(-1)?.state, events.at(-1)?.error], { timeout: 20_000 }).toEqual(['done', undefined]);
  });

  it('leaves a margin free for the chats (round 11): refuses to start where the stated size would take it, stops where a source that states none reaches it, and resumes once there is room', async () => {
    const { disk, db } = diskWithChats();
    const served = await serveModel();
    const events: DownloadProgress[] = [];
    const margin = 2 * MIB;
    const manager = testDownloadManager(join(disk.dir, 'models'), db, events, { marginFor: () => margin });
    // Room for the file and 1 MiB more: the file alone would fit, the file and the margin would not.
    const filler = join(disk.dir, 'other-program');
    writeFileSync(filler, Buffer.alloc(disk.free() - bytes.length - MIB));
    const free = disk.free();
    await manager.start(served.url);
    await expect.poll(() => events.at(-1)?.state, { timeout: 20_000 }).toBe('error');
    const said = /^Not enough free disk space for scripted-plain\.gguf: it needs 2\.5 MiB more, plus 2 MiB kept free so your chats can still be saved, and ([\d.]+) MiB is free in (.*)\.$/.exec(events.at(-1)?.error ?? '');
    expect(said?.[2]).toBe(join(disk.dir, 'models'));
    // What the disk had, less the download's own small note beside the file (a page of the tmpfs).
    expect(Math.abs(Number(said?.[1]) - free / MIB)).toBeLessThan(0.15);
    expect(served.gets()).toBe(0);

    // A source that states no size: the download takes what it can and stops with the margin still free.
    served.statesSize = false;
    await manager.start(served.url);
    await expect.poll(() => events.at(-1)?.state, { timeout: 20_000 }).toBe('error');
    expect(events.at(-1)?.error).toMatch(/^The download of scripted-plain\.gguf stopped to keep 2 MiB free so your chats can still be saved: it needs more \(its source gave no size\), and [\d.]+ MiB is free in /);
    expect(disk.free()).toBeGreaterThanOrEqual(margin);
    const kept = statSync(join(disk.dir, 'models', 'scripted-plain.gguf.part')).size;
    expect(kept).toBeGreaterThan(0);
    // The chats still save: a row of 1 MiB (a long chat's worth).
    db.exec('CREATE TABLE margin_check (x BLOB)');
    db.prepare('INSERT INTO margin_check VALUES (zeroblob(?))').run(MIB);

    rmSync(filler);
    await manager.start(served.url);
    await expect.poll(() => [events.at(-1)?.state, events.at(-1)?.error], { timeout: 20_000 }).toEqual(['done', undefined]);
    expect(served.ranges.at(-1)).toBe(`bytes=${kept}-`);
    expect(readFileSync(join(disk.dir, 'models', 'scripted-plain.gguf')).equals(bytes)).toBe(true);
  });
});
