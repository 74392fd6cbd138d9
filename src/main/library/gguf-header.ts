/**
 * A strict GGUF header reader: the key-value metadata and the tensor table, every read bounds-checked against the
 * file's size, then a check that the weights the table names are all in the file.
 *
 * Why not node-llama-cpp's `readGgufFileInfo`: given a file that starts with the magic and then garbage, it never
 * settles (the listing would hang), and a file cut short passes as valid. A models folder holds half-downloaded
 * and foreign files; each must become "unusable, because…", never a hang or a crash (issue 14).
 */
import { open, type FileHandle } from 'node:fs/promises';

export class GgufFormatError extends Error {}

/** The file stops before what its own header says it holds: a copy or a download that did not finish. */
export class GgufIncompleteError extends GgufFormatError {
  constructor(
    message: string,
    readonly size: number,
    /** Bytes the file needs at least: the end of its weights, or of the header field being read. */
    readonly needed: number,
  ) {
    super(message);
  }
}

export interface GgufTensor {
  name: string;
  dims: number[];
  type: number;
  offset: number;
}

export interface GgufHeader {
  version: number;
  /** Keys as GGUF spells them (`general.architecture`, `llama.block_count`...). Arrays of strings/numbers as arrays. */
  metadata: Record<string, unknown>;
  tensors: GgufTensor[];
}

/** Longest string accepted (chat templates are the longest, a few hundred KB at most). */
const MAX_STRING = 16 * 1024 * 1024;
const MAX_ITEMS = 50_000_000;
const CHUNK = 1024 * 1024;

/** [elements per block, bytes per block] of ggml's types (ggml.c type_traits), by type id. */
const TYPE_SIZE: Record<number, [number, number]> = {
  0: [1, 4], 1: [1, 2], 2: [32, 18], 3: [32, 20], 6: [32, 22], 7: [32, 24], 8: [32, 34], 9: [32, 36],
  10: [256, 84], 11: [256, 110], 12: [256, 144], 13: [256, 176], 14: [256, 210], 15: [256, 292],
  16: [256, 66], 17: [256, 74], 18: [256, 98], 19: [256, 50], 20: [32, 18], 21: [256, 110], 22: [256, 82],
  23: [256, 136], 24: [1, 1], 25: [1, 2], 26: [1, 4], 27: [1, 8], 28: [1, 8], 29: [256, 56], 30: [1, 2],
  34: [256, 54], 35: [256, 66], 39: [32, 17],
};

/** Reads sequentially through a file handle, a chunk at a time, never past the file's end. */
class Cursor {
  private buf = Buffer.alloc(0);
  private bufStart = 0;
  pos = 0;

  constructor(
    private readonly fh: FileHandle,
    readonly size: number,
  ) {}

  async bytes(n: number): Promise<Buffer> {
    if (n < 0) throw new GgufFormatError('A header field claims a negative length: the header is corrupt.');
    if (this.pos + n > this.size) throw new GgufIncompleteError(`The file ends inside its header (needed ${this.pos + n} of ${this.size} bytes): it is incomplete or corrupt.`, this.size, this.pos + n);
    const end = this.pos + n;
    if (this.pos < this.bufStart || end > this.bufStart + this.buf.length) {
      const length = Math.min(Math.max(n, CHUNK), this.size - this.pos);
      const b = Buffer.alloc(length);
      const { bytesRead } = await this.fh.read(b, 0, length, this.pos);
      if (bytesRead < n) throw new GgufFormatError('The file could not be read to the end of its header.');
      this.buf = b;
      this.bufStart = this.pos;
    }
    const at = this.pos - this.bufStart;
    this.pos = end;
    return this.buf.subarray(at, at + n);
  }

  async u8() { return (await this.bytes(1)).readUInt8(0); }
  async i8() { return (await this.bytes(1)).readInt8(0); }
  async u16() { return (await this.bytes(2)).readUInt16LE(0); }
  async i16() { return (await this.bytes(2)).readInt16LE(0); }
  async u32() { return (await this.bytes(4)).readUInt32LE(0); }
  async i32() { return (await this.bytes(4)).readInt32LE(0); }
  async f32() { return (await this.bytes(4)).readFloatLE(0); }
  async f64() { return (await this.bytes(8)).readDoubleLE(0); }
  async u64() { return Number((await this.bytes(8)).readBigUInt64LE(0)); }
  async i64() { return Number((await this.bytes(8)).readBigInt64LE(0)); }

  async str(): Promise<string> {
    const len = await this.u64();
    if (len > MAX_STRING) throw new GgufFormatError(`A metadata string claims ${len} bytes: the header is corrupt.`);
    return (await this.bytes(len)).toString('utf8');
  }
}

async function value(c: Cursor, type: number, depth = 0): Promise<unknown> {
  switch (type) {
    case 0: return c.u8();
    case 1: return c.i8();
    case 2: return c.u16();
    case 3: return c.i16();
    case 4: return c.u32();
    case 5: return c.i32();
    case 6: return c.f32();
    case 7: return (await c.u8()) !== 0;
    case 8: return c.str();
    case 9: {
      if (depth > 2) throw new GgufFormatError('Nested arrays in the metadata go too deep: the header is corrupt.');
      const itemType = await c.u32();
      const count = await c.u64();
      if (count > MAX_ITEMS || count > c.size) throw new GgufFormatError(`A metadata array claims ${count} items: the header is corrupt.`);
      const out: unknown[] = new Array(count);
      for (let i = 0; i < count; i++) out[i] = await value(c, itemType, depth + 1);
      return out;
    }
    case 10: return c.u64();
    case 11: return c.i64();
    case 12: return c.f64();
    default:
      throw new GgufFormatError(`Unknown metadata value type ${type}: the header is corrupt or from a newer GGUF.`);
  }
}

export async function readGgufHeader(path: string): Promise<GgufHeader> {
  const fh = await open(path, 'r');
  try {
    const size = (await fh.stat()).size;
    const c = new Cursor(fh, size);
    if (size < 4) throw new GgufFormatError('Not a GGUF file: it is empty or nearly so.');
    const magic = (await c.bytes(4)).toString('latin1');
    if (magic !== 'GGUF') throw new GgufFormatError(`Not a GGUF file (it starts with ${JSON.stringify(magic)}, not "GGUF").`);
    const version = await c.u32();
    if (version !== 2 && version !== 3) throw new GgufFormatError(`GGUF version ${version} is not one llama.cpp reads (2 or 3).`);
    const tensorCount = await c.u64();
    const kvCount = await c.u64();
    if (tensorCount > MAX_ITEMS || kvCount > MAX_ITEMS) throw new GgufFormatError('The header claims an impossible number of entries: it is corrupt.');
    const metadata: Record<string, unknown> = {};
    for (let i = 0; i < kvCount; i++) {
      const key = await c.str();
      metadata[key] = await value(c, await c.u32());
    }
    const tensors: GgufTensor[] = [];
    for (let i = 0; i < tensorCount; i++) {
      const name = await c.str();
      const nDims = await c.u32();
      if (nDims > 8) throw new GgufFormatError(`Tensor ${name} claims ${nDims} dimensions: the header is corrupt.`);
      const dims: number[] = [];
      for (let d = 0; d < nDims; d++) dims.push(await c.u64());
      tensors.push({ name, dims, type: await c.u32(), offset: await c.u64() });
    }
    const align = typeof metadata['general.alignment'] === 'number' && metadata['general.alignment'] > 0 ? metadata['general.alignment'] : 32;
    const dataStart = Math.ceil(c.pos / align) * align;
    const needed = tensors.reduce((max, t) => Math.max(max, dataStart + t.offset + tensorBytes(t)), dataStart);
    if (needed > size) {
      throw new GgufIncompleteError(`The file is shorter than its weights (${size} of ${needed} bytes): it is incomplete, perhaps a download that did not finish.`, size, needed);
    }
    return { version, metadata, tensors };
  } finally {
    await fh.close();
  }
}

/** Bytes a tensor's data takes; 0 for a type this table does not know (then it is not checked). */
function tensorBytes(t: GgufTensor): number {
  const traits = TYPE_SIZE[t.type];
  if (!traits) return 0;
  const elements = t.dims.reduce((a, d) => a * d, 1);
  return Math.ceil(elements / traits[0]) * traits[1];
}
