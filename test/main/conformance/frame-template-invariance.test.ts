/**
 * Reading frames through the frame template changes nothing a user sees: every recorded stream we keep (test
 * fixtures and the llama-server conformance captures) and the bench's synthetic responses normalize to the same
 * Turn with the template as with plain JSON.parse, frames read by their plain hole alone (readPlain) included.
 * With the template on, every value it hands a dialect is deep frozen, so a dialect that wrote into a parsed frame (which the template shares between frames) would throw here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { syntheticResponse } from '../../../bench/lib/synthetic-wire';
import { getDialect } from '../../../src/main/dialects/registry';
import { FrameTemplate } from '../../../src/main/dialects/shared/frame-template';
import type { DialectId } from '../../../src/main/dialects/types';
import { normalizeBatches } from '../../../src/main/engine/normalize-stream';
import { createTurnReducer } from '../../../src/shared/reducer';
import type { Turn } from '../../../src/shared/turn';

const repoRoot = path.resolve(__dirname, '../../..');
const FOLDERS: { dir: string; dialect: DialectId; ext: string }[] = [
  { dir: path.join(repoRoot, 'test/fixtures/ollama'), dialect: 'ollama', ext: '.ndjson' },
  { dir: path.join(repoRoot, 'test/fixtures/openai'), dialect: 'openai', ext: '.sse' },
  { dir: path.join(repoRoot, 'test/fixtures/anthropic'), dialect: 'anthropic', ext: '.sse' },
  { dir: path.resolve(repoRoot, '../shared/conformance/llama-server'), dialect: 'openai', ext: '.sse' },
];
const streams = FOLDERS.flatMap(({ dir, dialect, ext }) =>
  readdirSync(dir)
    .filter((f) => f.endsWith(ext))
    .sort()
    .map((f) => ({ name: `${path.basename(dir)}/${f}`, bytes: new Uint8Array(readFileSync(path.join(dir, f))), dialect })),
);
for (const dialect of ['ollama', 'openai', 'anthropic'] as const) {
  streams.push({ name: `synthetic ${dialect}`, bytes: new TextEncoder().encode(syntheticResponse(dialect, 3_000).body), dialect });
}

function deepFreeze<T>(v: T): T {
  if (v !== null && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const k of Object.keys(v)) deepFreeze((v as Record<string, unknown>)[k]);
  }
  return v;
}

async function* inChunks(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function normalize(bytes: Uint8Array, dialect: DialectId, size: number): Promise<Turn> {
  const reducer = createTurnReducer({ id: 't', conversationId: 'c', parentId: null, role: 'assistant', blocks: [], meta: {}, status: 'streaming', createdAt: 0 });
  for await (const parts of normalizeBatches(inChunks(bytes, size), getDialect(dialect))) reducer.applyAll(parts);
  return reducer.turn;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the frame template gives the Turn JSON.parse gives, on every recorded stream', () => {
  it('finds the streams of every folder', () => {
    for (const { dir } of FOLDERS) expect(streams.filter((s) => s.name.startsWith(`${path.basename(dir)}/`)).length).toBeGreaterThan(5);
  });
  for (const { name, bytes, dialect } of streams) {
    it(name, async () => {
      for (const size of [bytes.length, 7]) {
        const parse = vi.spyOn(FrameTemplate.prototype, 'parse').mockImplementation((text: string): unknown => JSON.parse(text));
        const plain = await normalize(bytes, dialect, size);
        parse.mockRestore();
        const original = FrameTemplate.prototype.parse;
        const originalPlain = FrameTemplate.prototype.readPlain;
        let hits = 0;
        vi.spyOn(FrameTemplate.prototype, 'parse').mockImplementation(function (this: FrameTemplate, text: string): unknown {
          const before = this.hits;
          const value = deepFreeze(original.call(this, text));
          hits += this.hits - before;
          return value;
        });
        // Frames a dialect reads by their plain hole alone (no value built) count as hits too.
        vi.spyOn(FrameTemplate.prototype, 'readPlain').mockImplementation(function (this: FrameTemplate, text: string): string | undefined {
          const before = this.hits;
          const value = originalPlain.call(this, text);
          hits += this.hits - before;
          return value;
        });
        expect(await normalize(bytes, dialect, size)).toStrictEqual(plain);
        // The long synthetic responses read nearly every token frame through the template.
        if (name.startsWith('synthetic')) expect(hits).toBeGreaterThan(2_900);
        vi.restoreAllMocks();
      }
    });
  }
});
