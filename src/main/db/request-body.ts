import { createHash } from 'node:crypto';
import { chunkEnds } from './content-chunks';

/**
 * A request body with each attachment payload cut out: the exact bytes are the concatenation of its segments,
 * where a blob segment (`b`) stands for that blob's bytes in base64 (how every dialect inlines images), and a chunk
 * segment (`c`, migration 0015) for a stored chunk's bytes, shared with the other bodies that hold it. Literal
 * segments that are not valid UTF-8 are kept as base64 (`x`) so the template itself never loses a byte. Bodies
 * stored before 0015 have literal segments only (`t`, `x`) besides their blobs, and read as they always did.
 */
export type BodySegment = { t: string } | { x: string } | { b: string } | { c: number };

/** Stores a chunk's bytes once (by their digest) and returns the id a `c` segment names it by. */
export type ChunkWriter = (bytes: Buffer) => number;
/** A stored chunk's bytes by id; throws when it is missing. */
export type ChunkReader = (id: number) => Uint8Array;

/** Text between attachments shorter than this stays in the template: a chunk row would cost more than it saves. */
export const INLINE_LITERAL_BYTES = 256;

export interface BodyTemplate {
  segments: BodySegment[];
  /** The blobs the body inlines, each once. */
  blobs: string[];
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Cuts every occurrence of each attachment's base64 form out of `body`. Longer payloads are cut first so a
 * payload that contains a shorter one (impossible for distinct images in practice) still templates exactly.
 * With `writeChunk`, the text between them is cut into content-defined chunks stored through it (chunk segments);
 * without, it stays in the template (literal segments).
 */
export function templateBody(body: Uint8Array, attachments: ReadonlyMap<string, Uint8Array>, writeChunk?: ChunkWriter): BodyTemplate {
  const buf = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const needles = [...attachments]
    .map(([digest, bytes]) => ({ digest, needle: Buffer.from(Buffer.from(bytes).toString('base64'), 'latin1') }))
    .filter((n) => n.needle.length > 0)
    .sort((a, b) => b.needle.length - a.needle.length);
  const segments: BodySegment[] = [];
  const pushLiteral = (bytes: Buffer) => (writeChunk ? pushChunks(segments, bytes, writeChunk) : pushInline(segments, bytes));
  const used = new Set<string>();
  let pos = 0;
  let literalFrom = 0;
  while (pos < buf.length) {
    const hit = nearest(buf, needles, pos);
    if (!hit) break;
    pushLiteral(buf.subarray(literalFrom, hit.at));
    segments.push({ b: hit.digest });
    used.add(hit.digest);
    pos = hit.at + hit.length;
    literalFrom = pos;
  }
  pushLiteral(buf.subarray(literalFrom));
  return { segments, blobs: [...used] };
}

/** Rebuilds the exact body bytes; `readBlob` and `readChunk` must return the bytes or throw. */
export function renderBody(segments: readonly BodySegment[], readBlob: (digest: string) => Uint8Array, readChunk: ChunkReader): Buffer {
  const parts: Buffer[] = [];
  for (const s of segments) {
    if ('c' in s) parts.push(Buffer.from(readChunk(s.c)));
    else if ('t' in s) parts.push(Buffer.from(s.t, 'utf8'));
    else if ('x' in s) parts.push(Buffer.from(s.x, 'base64'));
    else parts.push(Buffer.from(Buffer.from(readBlob(s.b)).toString('base64'), 'latin1'));
  }
  return Buffer.concat(parts);
}

function nearest(buf: Buffer, needles: readonly { digest: string; needle: Buffer }[], from: number) {
  let best: { at: number; length: number; digest: string } | undefined;
  for (const { digest, needle } of needles) {
    const at = buf.indexOf(needle, from);
    // Ties go to the longer needle, which comes first in the sorted list.
    if (at >= 0 && (best === undefined || at < best.at)) best = { at, length: needle.length, digest };
  }
  return best;
}

function pushChunks(segments: BodySegment[], bytes: Buffer, writeChunk: ChunkWriter): void {
  if (bytes.length < INLINE_LITERAL_BYTES) return pushInline(segments, bytes);
  let start = 0;
  for (const end of chunkEnds(bytes)) {
    segments.push({ c: writeChunk(bytes.subarray(start, end)) });
    start = end;
  }
}

function pushInline(segments: BodySegment[], bytes: Buffer): void {
  if (bytes.length === 0) return;
  const text = bytes.toString('utf8');
  segments.push(Buffer.from(text, 'utf8').equals(bytes) ? { t: text } : { x: bytes.toString('base64') });
}
