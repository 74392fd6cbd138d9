/**
 * Content-defined chunking (a gear rolling hash, as in FastCDC) for request bodies. Each request of a chat carries
 * the whole history, so consecutive bodies share all but their last few kilobytes; cut where the content says
 * (not at fixed offsets), the shared part falls into the same chunks in every body, and each chunk is stored once
 * (src/main/db/body-chunk-store.ts). Storage then grows with the chat, not with the square of its length.
 *
 * Changing these constants or the gear table never breaks a stored body (chunks are stored by their bytes); it
 * only stops new bodies sharing chunks with old ones.
 */

/** No cut before this many bytes: tiny chunks cost a row and a reference each for little sharing. */
export const CHUNK_MIN_BYTES = 1024;
/** Always a cut by here, so one long message cannot make a chunk that is never shared. */
export const CHUNK_MAX_BYTES = 16 * 1024;
/** A cut where the hash's top 12 bits are zero: one position in 4096, so chunks average about 1 + 4 KB. */
const CUT_MASK = 0xfff00000;

/** 256 fixed pseudo-random words (xorshift32 from a fixed seed), the same in every build. */
const GEAR = (() => {
  const table = new Uint32Array(256);
  let x = 0x9e3779b9;
  for (let i = 0; i < 256; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    table[i] = x >>> 0;
  }
  return table;
})();

/**
 * The end offset of each chunk of `bytes`, in order; the last is `bytes.length` (none for no bytes). The hash
 * shifts left one bit per byte, so its top bits depend on the last 32 bytes only: a cut depends on the bytes just
 * before it, and an insertion earlier in the body moves later cuts with the content.
 */
export function chunkEnds(bytes: Uint8Array): number[] {
  const ends: number[] = [];
  let start = 0;
  while (start < bytes.length) {
    const limit = Math.min(bytes.length, start + CHUNK_MAX_BYTES);
    let end = limit;
    let hash = 0;
    for (let i = start + CHUNK_MIN_BYTES; i < limit; i++) {
      hash = ((hash << 1) + GEAR[bytes[i]!]!) | 0;
      if ((hash & CUT_MASK) === 0) {
        end = i + 1;
        break;
      }
    }
    ends.push(end);
    start = end;
  }
  return ends;
}
