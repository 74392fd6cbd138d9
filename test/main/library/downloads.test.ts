/**
 * Downloads into the models folder from a local 127.0.0.1 server that speaks Range, the way a real file host does,
 * and that misbehaves on purpose: it drops the connection halfway, stalls, or states a sha256 the bytes do not have.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DownloadProgress } from '../../../src/shared/library';
import { chatsMarginFor, chatsOnDiskOf } from '../../../src/main/library/downloads/disk-margin';
import { DownloadManager } from '../../../src/main/library/downloads/download-manager';
import { FileDigests } from '../../../src/main/library/file-digest';
import { unreachableMessage } from '../../../src/main/library/downloads/unreachable';
import { openDatabase } from '../../../src/main/db/open-database';
import { generateScriptedModel } from '../../support/scripted-gguf/generate';
import { SCRIPTS } from '../../support/scripted-gguf/scripts';
import { testDownloadManager } from './test-download-manager';

const MIB = 1024 ** 2;
const GIB = 1024 ** 3;

let bytes: Buffer;
let sha: string;
beforeAll(() => {
  bytes = readFileSync(generateScriptedModel(SCRIPTS.plain));
  sha = createHash('sha256').update(bytes).digest('hex');
});

interface Behaviour {
  /** What a request without Range gets: all of it, half then a dropped socket, or half then silence. */
  first: 'all' | 'drop-half' | 'stall-half';
  /** The sha256 the server states (Hugging Face's X-Linked-Etag); null: none. */
  statedSha: string | null;
  /** Served in place of the model (a web page where a GGUF was expected), with its content type. */
  page?: { body: string; type: string };
  /**
   * No length anywhere (no Content-Length, no chunking: the body ends when the socket closes, as an HTTP/1.0-style
   * server or a proxy sends it), so a body cut short looks like one that ended. 'once': the first answer stops at
   * half, a ranged one sends the rest; 'always': every answer stops at half of what is left.
   */
  noLength?: 'once' | 'always';
  /** No such file: every request answers 404. */
  missing?: boolean;
}

let server: Server;
let url: string;
let ranges: (string | undefined)[];
let behaviour: Behaviour;
let dir: string;
let db: Database.Database;
let events: DownloadProgress[];
const stalled: ServerResponse[] = [];

function handle(req: IncomingMessage, res: ServerResponse): void {
  const headers: Record<string, string> = { 'accept-ranges': 'bytes', etag: '"v1"', ...(behaviour.statedSha ? { 'x-linked-etag': `"${behaviour.statedSha}"` } : {}) };
  if (behaviour.missing) {
    res.writeHead(404, { 'content-type': 'text/plain' });
    return void res.end('Not found');
  }
  if (req.method === 'HEAD' && behaviour.noLength) {
    res.writeHead(200, { 'accept-ranges': 'bytes' });
    return void res.end();
  }
  if (req.method === 'HEAD') {
    res.writeHead(200, { ...headers, 'content-length': String(bytes.length) });
    return void res.end();
  }
  ranges.push(req.headers.range);
  if (behaviour.page) {
    res.writeHead(200, { 'content-type': behaviour.page.type, 'content-length': String(Buffer.byteLength(behaviour.page.body)) });
    return void res.end(behaviour.page.body);
  }
  const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
  if (behaviour.noLength) {
    const from = m ? Number(m[1]) : 0;
    const rest = bytes.subarray(from);
    const cut = behaviour.noLength === 'always' || !m ? rest.subarray(0, Math.floor(rest.length / 2)) : rest;
    res.useChunkedEncodingByDefault = false;
    res.shouldKeepAlive = false;
    res.writeHead(m ? 206 : 200, { 'accept-ranges': 'bytes', connection: 'close', ...(m ? { 'content-range': `bytes ${from}-${bytes.length - 1}/*` } : {}) });
    return void res.end(cut);
  }
  if (m) {
    const from = Number(m[1]);
    res.writeHead(206, { ...headers, 'content-length': String(bytes.length - from), 'content-range': `bytes ${from}-${bytes.length - 1}/${bytes.length}` });
    return void res.end(bytes.subarray(from));
  }
  res.writeHead(200, { ...headers, 'content-length': String(bytes.length) });
  const half = Math.floor(bytes.length / 2);
  if (behaviour.first === 'all') return void res.end(bytes);
  res.write(bytes.subarray(0, half), () => {
    if (behaviour.first === 'drop-half') req.socket.destroy();
    else stalled.push(res);
  });
}

beforeEach(async () => {
  ranges = [];
  events = [];
  behaviour = { first: 'all', statedSha: null };
  dir = mkdtempSync(join(tmpdir(), 'firebrand-dl-'));
  db = openDatabase(join(dir, 'firebrand.db'));
  server = createServer(handle);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const a = server.address();
  url = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}/models/scripted-plain.gguf`;
});
afterEach(async () => {
  for (const res of stalled.splice(0)) res.destroy();
  await new Promise<void>((r) => server.close(() => r()));
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

function manager(overrides: Partial<ConstructorParameters<typeof DownloadManager>[0]> = {}) {
  return testDownloadManager(dir, db, events, overrides);
}

const last = () => events.at(-1);

describe('downloads: resumable and verified', () => {
  it('resumes with Range after the connection drops halfway, and verifies size and sha256', async () => {
    behaviour = { first: 'drop-half', statedSha: sha };
    const m = manager();
    await m.start(url);
    await expect.poll(() => last()?.state, { timeout: 20_000 }).toBe('done');
    const path = join(dir, 'scripted-plain.gguf');
    expect(createHash('sha256').update(readFileSync(path)).digest('hex')).toBe(sha);
    // The retry asked for exactly what was missing: from the first byte not on disk.
    expect(ranges[0]).toBeUndefined();
    expect(ranges[1]).toMatch(/^bytes=\d+-$/);
    const resumedAt = Number(/\d+/.exec(ranges[1] ?? '')?.[0]);
    expect(resumedAt).toBeGreaterThan(0);
    expect(resumedAt).toBeLessThan(bytes.length);
    expect(events.some((e) => e.state === 'verifying')).toBe(true);
    // Checked against the sha256 its source gave: that, and only that, is "verified".
    expect(last()).toMatchObject({ bytes: bytes.length, total: bytes.length, verified: true });
    expect(existsSync(`${path}.part`)).toBe(false);
    expect(await new FileDigests(db).peek(path)).toBe(sha);
  });

  it('resumes a download whose source gives no length when the body stops before the end its GGUF header names', async () => {
    behaviour = { first: 'all', statedSha: null, noLength: 'once' };
    const m = manager();
    await m.start(url);
    await expect.poll(() => last()?.state, { timeout: 20_000 }).toBe('done');
    const path = join(dir, 'scripted-plain.gguf');
    expect(readFileSync(path).equals(bytes)).toBe(true);
    expect(ranges[1]).toBe(`bytes=${Math.floor(bytes.length / 2)}-`);
    expect(last()).toMatchObject({ bytes: bytes.length, total: bytes.length, verified: false });
  });

  it('says a download with no length ended early, instead of done, when it keeps stopping short, and keeps what arrived', async () => {
    behaviour = { first: 'all', statedSha: null, noLength: 'always' };
    const m = manager();
    await m.start(url);
    await expect.poll(() => last()?.state, { timeout: 20_000 }).toBe('error');
    expect(last()?.error).toMatch(/^The download of scripted-plain\.gguf ended early: [\d,]+ bytes arrived, and its own header needs at least [\d,]+ .*What arrived is kept: Resume goes on from there\.$/);
    expect(events.some((e) => e.state === 'done')).toBe(false);
    expect(existsSync(join(dir, 'scripted-plain.gguf'))).toBe(false);
    expect(existsSync(join(dir, 'scripted-plain.gguf.part'))).toBe(true);
  });

  it('resumes after the app was closed mid-download: a new session finds the paused download and continues', async () => {
    behaviour = { first: 'stall-half', statedSha: null };
    const first = manager();
    const { downloadId } = await first.start(url);
    await expect.poll(() => last()?.bytes ?? 0, { timeout: 20_000 }).toBeGreaterThan(0);
    first.pause(downloadId);
    await expect.poll(() => last()?.state).toBe('paused');
    const onDisk = readFileSync(join(dir, 'scripted-plain.gguf.part')).length;
    expect(onDisk).toBeGreaterThan(0);

    // "Restart": a fresh manager reads the sidecar and lists the download as paused, then resumes it.
    const second = manager();
    await second.restore();
    expect(second.list()).toEqual([expect.objectContaining({ file: 'scripted-plain.gguf', state: 'paused', bytes: onDisk, total: bytes.length })]);
    await second.start(url);
    await expect.poll(() => last()?.state, { timeout: 20_000 }).toBe('done');
    expect(ranges.at(-1)).toBe(`bytes=${onDisk}-`);
    expect(readFileSync(join(dir, 'scripted-plain.gguf')).equals(bytes)).toBe(true);
    // No sha256 came with it: done, but not called verified.
    expect(last()?.verified).toBe(false);
  });

  it('removes a file whose sha256 is not the one its source states', async () => {
    behaviour = { first: 'all', statedSha: 'f'.repeat(64) };
    await manager().start(url);
    await expect.poll(() => last()?.state, { timeout: 20_000 }).toBe('error');
    expect(last()?.error).toMatch(/does not match the sha256 its source gives/);
    expect(existsSync(join(dir, 'scripted-plain.gguf'))).toBe(false);
    expect(existsSync(join(dir, 'scripted-plain.gguf.part'))).toBe(false);
  });

  it('refuses a web page where a GGUF was expected at its first bytes, removes them, and says which link works (models audit #5)', async () => {
    behaviour = { first: 'all', statedSha: null, page: { body: '<html>Sign in</html>\n', type: 'text/html; charset=utf-8' } };
    await manager().start(url);
    await expect.poll(() => last()?.state, { timeout: 20_000 }).toBe('error');
    expect(last()?.error).toBe(
      'scripted-plain.gguf was not downloaded: this address served a web page, not a GGUF file. For Hugging Face use the resolve/ link (not blob/) or hf:owner/repo/file.gguf.',
    );
    expect(existsSync(join(dir, 'scripted-plain.gguf'))).toBe(false);
    expect(existsSync(join(dir, 'scripted-plain.gguf.part'))).toBe(false);
    // Asked once: the same page would come again.
    expect(ranges).toEqual([undefined]);

    behaviour = { first: 'all', statedSha: null, page: { body: 'PK\u0003\u0004 not a model', type: 'application/octet-stream' } };
    events = [];
    await manager().start(url);
    await expect.poll(() => last()?.state, { timeout: 20_000 }).toBe('error');
    expect(last()?.error).toContain('did not serve a GGUF file (it starts with "PK');
  });

  it('offers no Resume for a download refused for good, and leaves no sidecar in the models folder (models audit #8)', async () => {
    const hidden = join(dir, '.scripted-plain.gguf.download.json');
    behaviour = { first: 'all', statedSha: null, page: { body: '<html>Sign in</html>\n', type: 'text/html; charset=utf-8' } };
    await manager().start(url);
    await expect.poll(() => last()?.state, { timeout: 20_000 }).toBe('error');
    expect(last()).toMatchObject({ resumable: false, bytes: 0 });
    // Before, it stayed until Cancel was pressed.
    expect(existsSync(hidden)).toBe(false);
    expect(existsSync(join(dir, 'scripted-plain.gguf.part'))).toBe(false);

    behaviour = { first: 'all', statedSha: null, missing: true };
    events = [];
    await manager().start(url.replace('scripted-plain', 'missing'));
    await expect.poll(() => last()?.state, { timeout: 20_000 }).toBe('error');
    expect(last()).toMatchObject({ resumable: false, error: `There is no file at ${url.replace('scripted-plain', 'missing')} (HTTP 404). Check the address.` });
  });

  it('says in words that the source could not be reached, not a system call and its code (library eyes)', async () => {
    // A port nothing listens on: the connection is refused, as an address mistyped to a local server's would be.
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const a = closed.address();
    const port = typeof a === 'object' && a ? a.port : 0;
    await new Promise<void>((r) => closed.close(() => r()));
    await manager().start(`http://127.0.0.1:${port}/models/x.gguf`);
    await expect.poll(() => last()?.state, { timeout: 20_000 }).toBe('error');
    // Before: "The download stopped: connect ECONNREFUSED 127.0.0.1:… Start it again to resume."
    expect(last()?.error).toBe(`The download of x.gguf stopped: 127.0.0.1:${port} refused the connection: nothing is listening at that address. Resume tries again.`);
    // Offline, a name cannot be looked up (Node's getaddrinfo error, as undici hands it on).
    const offline = Object.assign(new Error('getaddrinfo ENOTFOUND huggingface.co'), { code: 'ENOTFOUND', hostname: 'huggingface.co' });
    expect(unreachableMessage(offline, 'm.gguf', 'https://huggingface.co/o/r/resolve/main/m.gguf', 0)).toBe(
      'The download of m.gguf stopped: huggingface.co could not be found: this machine may be offline, or the address may be wrong. Resume tries again.',
    );
    expect(unreachableMessage(new Error('other', { cause: offline }), 'm.gguf', 'https://huggingface.co/m.gguf', 1024)).toMatch(/could not be found.*What arrived is kept: Resume goes on from there\.$/);
    expect(unreachableMessage(new Error('disk on fire'), 'm.gguf', 'https://huggingface.co/m.gguf', 0)).toBeNull();
  });

  it('says what Resume does where a download stopped for another reason, in the words of its button', async () => {
    // The models folder cannot be made: its parent is a file (a reason no other message names).
    const blocked = join(dir, 'not-a-folder');
    writeFileSync(blocked, 'x');
    await testDownloadManager(join(blocked, 'models'), db, events).start(url);
    await expect.poll(() => last()?.state, { timeout: 20_000 }).toBe('error');
    // Before: "The download stopped: ENOTDIR: … Start it again to resume." beside a button called Resume.
    expect(last()?.error).toMatch(/^The download of scripted-plain\.gguf stopped: .*not a directory.*\. Resume tries again\.$/);
    expect(last()?.error).not.toMatch(/start it again/i);
  });

  it('refuses a second address for a file a download still writes, and keeps the first one as it was', async () => {
    behaviour = { first: 'stall-half', statedSha: null };
    const m = manager();
    const { downloadId } = await m.start(url);
    await expect.poll(() => last()?.bytes ?? 0, { timeout: 20_000 }).toBeGreaterThan(0);
    const elsewhere = url.replace('/models/', '/mirror/');
    // Running: it said nothing and the first download went on as if this address had been asked.
    await expect(m.start(elsewhere)).rejects.toThrow('A download of scripted-plain.gguf from another address is running: Cancel it first to download scripted-plain.gguf from this one.');
    m.pause(downloadId);
    await expect.poll(() => last()?.state).toBe('paused');
    const kept = readFileSync(join(dir, 'scripted-plain.gguf.part')).length;
    const asked = ranges.length;
    // Paused (or stopped): before, the second address took over its row and source, and went on from its bytes.
    await expect(m.start(elsewhere)).rejects.toThrow('A download of scripted-plain.gguf from another address is already here: Resume it, or Cancel it to download scripted-plain.gguf from this one.');
    expect(m.list()).toEqual([expect.objectContaining({ downloadId, source: url, state: 'paused', bytes: kept })]);
    expect(ranges.length).toBe(asked);
    expect(readFileSync(join(dir, 'scripted-plain.gguf.part')).length).toBe(kept);
    // Its own address resumes it, in its row.
    expect(await m.start(url)).toEqual({ downloadId });
    await m.cancel(downloadId);
  });

  it('downloads a file from a second address beside a first one refused for good, each in its own row', async () => {
    behaviour = { first: 'all', statedSha: null, missing: true };
    const m = manager();
    const missing = url.replace('/models/', '/gone/');
    const first = await m.start(missing);
    await expect.poll(() => last()?.state, { timeout: 20_000 }).toBe('error');
    behaviour = { first: 'stall-half', statedSha: null };
    const second = await m.start(url);
    expect(second.downloadId).not.toBe(first.downloadId);
    await expect.poll(() => last()?.bytes ?? 0, { timeout: 20_000 }).toBeGreaterThan(0);
    expect(m.list()).toEqual([
      expect.objectContaining({ downloadId: first.downloadId, source: missing, state: 'error', resumable: false }),
      expect.objectContaining({ downloadId: second.downloadId, source: url, state: 'running' }),
    ]);
    // Dismissing the refused one leaves the other's bytes alone (Cancel deleted the file's part by its name).
    await m.cancel(first.downloadId);
    expect(existsSync(join(dir, 'scripted-plain.gguf.part'))).toBe(true);
    expect(existsSync(join(dir, '.scripted-plain.gguf.download.json'))).toBe(true);
    m.pause(second.downloadId);
  });

  it('checks free disk space before taking a byte', async () => {
    await manager({ diskSpace: () => Promise.resolve({ free: 1000, size: 100 * GIB }) }).start(url);
    await expect.poll(() => last()?.state, { timeout: 20_000 }).toBe('error');
    expect(last()?.error).toMatch(/Not enough free disk space/);
    expect(ranges).toEqual([]);
  });

  it('refuses sources that name no GGUF, and names hf: files on Hugging Face', async () => {
    await expect(manager().start('https://example.com/readme.txt')).rejects.toThrow(/does not name a \.gguf file/);
    await expect(manager().start('hf:owner/repo')).rejects.toThrow(/hf:owner\/repo\/file\.gguf/);
    const { parseSource } = await import('../../../src/main/library/downloads/download-source');
    expect(parseSource('hf:Qwen/Qwen3-0.6B-GGUF/Qwen3-0.6B-Q8_0.gguf')).toEqual({
      source: 'hf:Qwen/Qwen3-0.6B-GGUF/Qwen3-0.6B-Q8_0.gguf',
      url: 'https://huggingface.co/Qwen/Qwen3-0.6B-GGUF/resolve/main/Qwen3-0.6B-Q8_0.gguf',
      file: 'Qwen3-0.6B-Q8_0.gguf',
    });
  });
});

describe('downloads: a margin left free for the chats (round 11)', () => {
  it('keeps 256 MiB free, or 1 % of a disk larger than 25 GiB', () => {
    expect(chatsMarginFor(8 * GIB)).toBe(256 * MIB);
    expect(chatsMarginFor(100 * GIB)).toBe(GIB);
  });

  it('refuses to start a download that fits the disk but not with the margin, saying what it needs and what is free', async () => {
    // Room for the file and 100 MiB more, on a 100 GiB disk (a margin of 1 GiB): the file alone would fit.
    const free = bytes.length + 100 * MIB;
    await manager({ diskSpace: () => Promise.resolve({ free, size: 100 * GIB }), marginFor: chatsMarginFor }).start(url);
    await expect.poll(() => last()?.state, { timeout: 20_000 }).toBe('error');
    expect(last()?.error).toBe(
      `Not enough free disk space for scripted-plain.gguf: it needs 2.5 MiB more, plus 1 GiB kept free so your chats can still be saved, and 102.4 MiB is free in ${dir}.`,
    );
    expect(ranges).toEqual([]);
    expect(existsSync(join(dir, 'scripted-plain.gguf.part'))).toBe(false);
  });

  it('says the margin is for that disk, not for the chats, where the chats are on another disk', async () => {
    const free = bytes.length + 100 * MIB;
    const asked: string[] = [];
    const chatsOnDisk = (at: string) => (asked.push(at), Promise.resolve(false));
    await manager({ diskSpace: () => Promise.resolve({ free, size: 100 * GIB }), marginFor: chatsMarginFor, chatsOnDisk }).start(url);
    await expect.poll(() => last()?.state, { timeout: 20_000 }).toBe('error');
    expect(last()?.error).toBe(`Not enough free disk space for scripted-plain.gguf: it needs 2.5 MiB more, plus 1 GiB kept free on that disk so it does not fill up, and 102.4 MiB is free in ${dir}.`);
    expect(asked).toEqual([dir]);
  });

  it('reads the chats as on the models disk where the data folder is on the same device', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'firebrand-data-'));
    try {
      expect(await chatsOnDiskOf(dataDir)(dir)).toBe(true);
      // A folder that cannot be read is taken to be on it: the message then names the chats, as before.
      expect(await chatsOnDiskOf(join(dataDir, 'gone'))(dir)).toBe(true);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('stops midway when the room left reaches the margin, keeps what arrived, and resumes from there once there is room', async () => {
    const part = join(dir, 'scripted-plain.gguf.part');
    const onDisk = () => (existsSync(part) ? statSync(part).size : 0);
    const margin = MIB;
    // A disk with room for half the file beside the margin: there was room for all of it when the download was
    // checked, and another program took the rest meanwhile.
    let looks = 0;
    let room = Math.floor(bytes.length / 2) + margin;
    const diskSpace = () => Promise.resolve({ free: looks++ === 0 ? GIB : room - onDisk(), size: GIB });
    await manager({ diskSpace, marginFor: () => margin }).start(url);
    await expect.poll(() => last()?.state, { timeout: 20_000 }).toBe('error');
    expect(last()?.error).toMatch(/^The download of scripted-plain\.gguf stopped to keep 1 MiB free so your chats can still be saved: it needs [\d.]+ MiB more, and [\d.]+ MiB is free in /);
    expect(last()?.error).toContain(`is free in ${dir}. What arrived is kept: free some space, then Resume goes on from there.`);
    // The margin is still free, and what arrived waits on disk.
    expect(room - onDisk()).toBeGreaterThanOrEqual(margin);
    const kept = onDisk();
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(bytes.length);

    room = GIB;
    await manager({ diskSpace, marginFor: () => margin }).start(url);
    await expect.poll(() => last()?.state, { timeout: 20_000 }).toBe('done');
    expect(ranges.at(-1)).toBe(`bytes=${kept}-`);
    expect(readFileSync(join(dir, 'scripted-plain.gguf')).equals(bytes)).toBe(true);
  });
});
