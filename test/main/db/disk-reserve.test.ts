/**
 * Round 7: the reserve file that lets a delete, and a start, work on a full disk (src/main/db/disk-reserve.ts):
 * written a little after a start where there is room, not on the way to the first window; not written where the
 * room it would take is the room a user just made; never left half written.
 */
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DiskReserve, RESERVE_BYTES, RESERVE_CHECK_MS, RESERVE_DELAY_MS, RESERVE_FILE, RESERVE_MIN_BYTES } from '../../../src/main/db/disk-reserve';
import { openLockedDatabase } from '../../../src/main/db/folder-lock';
import { tempDir } from './helpers';

const cleanups: (() => void)[] = [];
afterEach(() => {
  vi.useRealTimers();
  cleanups.splice(0).forEach((c) => c());
});

describe('the reserve kept back for a full disk', () => {
  it('is written RESERVE_DELAY_MS after a start, not during it, and again when it has gone and there is room', async () => {
    const { dir, cleanup } = tempDir('firebrand-reserve-');
    cleanups.push(cleanup);
    vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval'] });
    const { db, lock } = openLockedDatabase(dir);
    cleanups.unshift(() => {
      db.close();
      lock.release();
    });
    const file = join(dir, RESERVE_FILE);
    const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
    // The reserve is written on libuv's pool, a slice at a time: waited for by turns of the loop (the timers are fake).
    const written = async () => {
      while (!existsSync(file)) await nextTurn();
      return statSync(file).size;
    };
    expect(existsSync(file)).toBe(false);
    vi.advanceTimersByTime(RESERVE_DELAY_MS);
    expect(existsSync(file)).toBe(false);
    expect(await written()).toBe(RESERVE_BYTES);

    // Used (a delete on a full disk), and the user makes room outside Firebrand: it comes back at the next look.
    rmSync(file);
    vi.advanceTimersByTime(RESERVE_CHECK_MS - 1);
    await nextTurn();
    expect(existsSync(file)).toBe(false);
    vi.advanceTimersByTime(1);
    expect(await written()).toBe(RESERVE_BYTES);
  });

  it('is not written without room for it and the headroom, and leaves no partial file', async () => {
    const { dir, cleanup } = tempDir('firebrand-reserve-');
    cleanups.push(cleanup);
    let free = 4096 + 100;
    const reserve = new DiskReserve(dir, { bytes: 4096, headroomBytes: 1000, freeBytes: () => free });
    expect(await reserve.restore()).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
    free = 4096 + 1000;
    expect(await reserve.restore()).toBe(true);
    expect(readdirSync(dir)).toEqual([RESERVE_FILE]);
    expect(reserve.release()).toBe(true);
    expect(reserve.release()).toBe(false);
    expect(reserve.held).toBe(false);
  });

  it('on a disk with under 72 MB free (8 MB + the headroom), is a share of the room, never its last, and grows back with it', async () => {
    const { dir, cleanup } = tempDir('firebrand-reserve-');
    cleanups.push(cleanup);
    const MB = 1024 * 1024;
    const file = join(dir, RESERVE_FILE);
    const size = () => (existsSync(file) ? statSync(file).size : 0);
    // The disk: `room` bytes for the reserve and everything else; what the reserve holds is not free.
    const disk = { room: 20 * MB };
    const reserve = new DiskReserve(dir, { freeBytes: () => disk.room - size() });

    expect(await reserve.restore()).toBe(true);
    expect(size()).toBeGreaterThanOrEqual(2 * MB);
    expect(size()).toBeLessThanOrEqual(disk.room / 9);
    expect(readdirSync(dir)).toEqual([RESERVE_FILE]);
    // A little more room: no new file at each look.
    const first = statSync(file).mtimeMs;
    const small = size();
    disk.room = 25 * MB;
    expect(await reserve.restore()).toBe(true);
    expect(size()).toBe(small);
    expect(statSync(file).mtimeMs).toBe(first);
    // Room made (chats deleted, the user's own cleaning): the full reserve, with the headroom left.
    disk.room = 200 * MB;
    expect(await reserve.restore()).toBe(true);
    expect(size()).toBe(RESERVE_BYTES);

    // Used on a full disk, then a disk with little room: a small reserve all the same, leaving most of the room.
    expect(reserve.release()).toBe(true);
    disk.room = 2 * MB;
    expect(await reserve.restore()).toBe(true);
    expect(size()).toBeGreaterThanOrEqual(RESERVE_MIN_BYTES);
    expect(disk.room - size()).toBeGreaterThanOrEqual((disk.room * 8) / 9);
    // And none where even the smallest would take more than its share.
    expect(reserve.release()).toBe(true);
    disk.room = 400 * 1024;
    expect(await reserve.restore()).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });
});
