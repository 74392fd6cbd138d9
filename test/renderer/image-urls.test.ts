import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Turn } from '../../src/shared/turn';

/** The page's object URLs as store/image-urls.ts makes and revokes them. */
const alive = new Set<string>();
let made = 0;

beforeEach(() => {
  vi.resetModules();
  vi.useFakeTimers();
  alive.clear();
  vi.spyOn(URL, 'createObjectURL').mockImplementation(() => {
    const url = `blob:test/${++made}`;
    alive.add(url);
    return url;
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation((url: string) => void alive.delete(url));
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const bytes = new Uint8Array([1, 2, 3]);
const userTurn = (id: string, images: string[]): Turn => ({
  id,
  conversationId: 'c',
  parentId: null,
  role: 'user',
  blocks: images.map((d) => ({ type: 'attachment', id: d, kind: 'image', name: `${d}.png`, mime: 'image/png', size: 3 })),
  meta: {},
  status: 'done',
  createdAt: 1,
});

describe('image URLs', () => {
  it('keeps a URL while anything shows it or a turn in view names it, and revokes it after', async () => {
    const urls = await import('../../src/renderer/store/image-urls');
    let turns: Turn[] = [userTurn('u1', ['a']), userTurn('u2', ['a'])];
    let changed = () => {};
    urls.connectImageUrls(() => turns, (listener) => (changed = listener));
    urls.keepImageBytes('a', bytes, 'image/png');
    urls.keepImageBytes('b', bytes, 'image/png');
    // Shown twice (two turns), once released: still shown by the other.
    const first = urls.holdImageUrl('a');
    const second = urls.holdImageUrl('a');
    first();
    await vi.runAllTimersAsync();
    expect(urls.cachedImageUrl('a')).toBeDefined();
    second();
    await vi.runAllTimersAsync();
    // Off screen, but its turns are still in view (scrolled out of the list): kept.
    expect(urls.cachedImageUrl('a')).toBeDefined();
    // The chat closed: its turns are gone from the store.
    turns = [];
    changed();
    await vi.runAllTimersAsync();
    expect(urls.cachedImageUrl('a')).toBeUndefined();
    // A composer chip's URL is kept until its chip shows it, and goes with the chip.
    expect(urls.cachedImageUrl('b')).toBeDefined();
    const chip = urls.holdImageUrl('b');
    chip();
    await vi.runAllTimersAsync();
    expect(urls.cachedImageUrl('b')).toBeUndefined();
    expect(alive.size).toBe(0);
  });

  it('never makes a URL for a type that could run script', async () => {
    const urls = await import('../../src/renderer/store/image-urls');
    urls.keepImageBytes('svg', bytes, 'image/svg+xml');
    expect(urls.cachedImageUrl('svg')).toBeUndefined();
    expect(alive.size).toBe(0);
  });
});
