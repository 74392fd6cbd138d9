/**
 * Cuts recorded bytes into chunks the way a network might: fixed sizes, or random sizes from a seeded PRNG
 * (so a failing cut can be replayed). Cuts land anywhere, mid-line and mid-UTF-8 character included, on purpose.
 */
export type ChunkSpec = { kind: 'whole' } | { kind: 'fixed'; size: number } | { kind: 'random'; seed: number };

export function parseChunkSpec(text: string): ChunkSpec | undefined {
  if (text === 'whole') return { kind: 'whole' };
  const random = /^random:(\d+)$/.exec(text);
  if (random) return { kind: 'random', seed: Number(random[1]) };
  if (/^\d+$/.test(text) && Number(text) > 0) return { kind: 'fixed', size: Number(text) };
  return undefined;
}

/** mulberry32: tiny, seedable, good enough to scatter cut points. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function cutBytes(bytes: Uint8Array, spec: ChunkSpec): Uint8Array[] {
  if (spec.kind === 'whole' || bytes.length === 0) return [bytes];
  const out: Uint8Array[] = [];
  const next = spec.kind === 'random' ? prng(spec.seed) : undefined;
  for (let at = 0; at < bytes.length; ) {
    const size = next ? 1 + Math.floor(next() * 40) : spec.kind === 'fixed' ? spec.size : bytes.length;
    out.push(bytes.subarray(at, at + size));
    at += size;
  }
  return out;
}

export async function* iterate(chunks: readonly Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const chunk of chunks) yield chunk;
}
