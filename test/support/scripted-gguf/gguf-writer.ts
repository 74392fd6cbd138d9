/**
 * A minimal GGUF v3 writer: metadata key/values and F32 tensors, nothing else. Written by hand because the only
 * maintained GGUF libraries on npm read files; writing is the small part (ggml's docs/gguf.md is the spec).
 */
import { closeSync, openSync, writeSync } from 'node:fs';

/** A metadata value with its GGUF type spelled out: the format cares whether a number is u32, i32 or f32. */
export type GgufValue =
  | { type: 'u32'; value: number }
  | { type: 'i32'; value: number }
  | { type: 'f32'; value: number }
  | { type: 'bool'; value: boolean }
  | { type: 'string'; value: string }
  | { type: 'string[]'; value: readonly string[] }
  | { type: 'f32[]'; value: readonly number[] }
  | { type: 'i32[]'; value: readonly number[] };

/** One F32 tensor; `dims` in GGUF order (ne0 first: the contiguous dimension). */
export interface GgufTensor {
  name: string;
  dims: readonly number[];
  /** Row-major data, ne0 fastest; omitted means all zeros (written without building the array). */
  data?: Float32Array;
}

const ALIGNMENT = 32;
const T_UINT32 = 4;
const T_INT32 = 5;
const T_FLOAT32 = 6;
const T_BOOL = 7;
const T_STRING = 8;
const T_ARRAY = 9;
const GGML_TYPE_F32 = 0;

/** Collects bytes for the header; tensor data is streamed to the file afterwards. */
class ByteSink {
  private readonly chunks: Buffer[] = [];
  length = 0;

  push(buf: Buffer): void {
    this.chunks.push(buf);
    this.length += buf.length;
  }

  u32(n: number): void {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n);
    this.push(b);
  }

  i32(n: number): void {
    const b = Buffer.alloc(4);
    b.writeInt32LE(n);
    this.push(b);
  }

  u64(n: number): void {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(n));
    this.push(b);
  }

  f32(n: number): void {
    const b = Buffer.alloc(4);
    b.writeFloatLE(n);
    this.push(b);
  }

  str(s: string): void {
    const bytes = Buffer.from(s, 'utf8');
    this.u64(bytes.length);
    this.push(bytes);
  }

  pad(): void {
    const rem = this.length % ALIGNMENT;
    if (rem) this.push(Buffer.alloc(ALIGNMENT - rem));
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

function writeValue(sink: ByteSink, v: GgufValue): void {
  switch (v.type) {
    case 'u32':
      sink.u32(T_UINT32);
      sink.u32(v.value);
      return;
    case 'i32':
      sink.u32(T_INT32);
      sink.i32(v.value);
      return;
    case 'f32':
      sink.u32(T_FLOAT32);
      sink.f32(v.value);
      return;
    case 'bool':
      sink.u32(T_BOOL);
      sink.push(Buffer.from([v.value ? 1 : 0]));
      return;
    case 'string':
      sink.u32(T_STRING);
      sink.str(v.value);
      return;
    case 'string[]':
      sink.u32(T_ARRAY);
      sink.u32(T_STRING);
      sink.u64(v.value.length);
      for (const s of v.value) sink.str(s);
      return;
    case 'f32[]':
      sink.u32(T_ARRAY);
      sink.u32(T_FLOAT32);
      sink.u64(v.value.length);
      for (const n of v.value) sink.f32(n);
      return;
    case 'i32[]':
      sink.u32(T_ARRAY);
      sink.u32(T_INT32);
      sink.u64(v.value.length);
      for (const n of v.value) sink.i32(n);
      return;
  }
}

function aligned(n: number): number {
  return Math.ceil(n / ALIGNMENT) * ALIGNMENT;
}

function elementCount(t: GgufTensor): number {
  return t.dims.reduce((a, b) => a * b, 1);
}

/** Writes a GGUF v3 file at `path` (little-endian, 32-byte alignment, F32 tensors). */
export function writeGguf(path: string, metadata: ReadonlyMap<string, GgufValue>, tensors: readonly GgufTensor[]): void {
  const head = new ByteSink();
  head.push(Buffer.from('GGUF', 'latin1'));
  head.u32(3);
  head.u64(tensors.length);
  head.u64(metadata.size + 1);
  head.str('general.alignment');
  writeValue(head, { type: 'u32', value: ALIGNMENT });
  for (const [key, value] of metadata) {
    head.str(key);
    writeValue(head, value);
  }
  let offset = 0;
  for (const t of tensors) {
    if (t.data && t.data.length !== elementCount(t)) throw new Error(`tensor ${t.name}: ${t.data.length} values for dims ${t.dims.join('x')}`);
    head.str(t.name);
    head.u32(t.dims.length);
    for (const d of t.dims) head.u64(d);
    head.u32(GGML_TYPE_F32);
    head.u64(offset);
    offset += aligned(elementCount(t) * 4);
  }
  head.pad();

  const fd = openSync(path, 'w');
  try {
    writeSync(fd, head.bytes());
    for (const t of tensors) {
      const size = elementCount(t) * 4;
      writeSync(fd, t.data ? Buffer.from(t.data.buffer, t.data.byteOffset, size) : Buffer.alloc(size));
      if (aligned(size) > size) writeSync(fd, Buffer.alloc(aligned(size) - size));
    }
  } finally {
    closeSync(fd);
  }
}
