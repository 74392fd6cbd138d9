/**
 * The replay command's promise (README): the same JSON for every `--chunk`, on every recorded stream we keep,
 * old and new. Runs the command's own `replay()` (dialect auto-detected, as the CLI does by default) over every
 * stream under test/fixtures and the llama-server conformance captures, with and without `--think-open`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { replay } from '../../../src/main/cli/replay';
import type { ChunkSpec } from '../../../src/main/leg/chunking';

const repoRoot = path.resolve(__dirname, '../../..');
const FOLDERS: { dir: string; dialect: string; streams: (f: string) => boolean }[] = [
  { dir: path.join(repoRoot, 'test/fixtures/ollama'), dialect: 'ollama', streams: (f) => f.endsWith('.ndjson') },
  { dir: path.join(repoRoot, 'test/fixtures/openai'), dialect: 'openai', streams: (f) => f.endsWith('.sse') },
  { dir: path.join(repoRoot, 'test/fixtures/anthropic'), dialect: 'anthropic', streams: (f) => f.endsWith('.sse') },
  {
    dir: path.resolve(repoRoot, '../shared/conformance/llama-server'),
    dialect: 'openai',
    streams: (f) => f.endsWith('.sse') || (/-nostream-/.test(f) && f.endsWith('.json') && !f.endsWith('.request.json')),
  },
];

const CHUNKINGS: ChunkSpec[] = [
  { kind: 'whole' },
  { kind: 'fixed', size: 1 },
  { kind: 'fixed', size: 2 },
  { kind: 'fixed', size: 3 },
  { kind: 'fixed', size: 7 },
  { kind: 'fixed', size: 64 },
  { kind: 'random', seed: 1 },
  { kind: 'random', seed: 42 },
  { kind: 'random', seed: 7777 },
];

const files = FOLDERS.flatMap(({ dir, dialect, streams }) =>
  readdirSync(dir)
    .filter(streams)
    .sort()
    .map((name) => ({ name: `${path.basename(dir)}/${name}`, file: path.join(dir, name), dialect })),
);

describe('replay gives the same JSON for every chunking, on every recorded stream', () => {
  it('finds the streams of every folder', () => {
    for (const { dialect } of FOLDERS) expect(files.filter((f) => f.dialect === dialect).length).toBeGreaterThan(5);
  });
  for (const { name, file, dialect } of files) {
    it(name, async () => {
      const bytes = readFileSync(file);
      for (const thinkOpen of [false, true]) {
        const outputs = new Map<string, string>();
        for (const chunk of CHUNKINGS) {
          const result = await replay(bytes, { chunk, thinkOpen });
          expect(result.dialect, 'auto-detected dialect').toBe(dialect);
          outputs.set(JSON.stringify(result), JSON.stringify(chunk));
        }
        expect([...outputs.values()], `thinkOpen=${thinkOpen}: one output for all chunkings`).toHaveLength(1);
      }
    });
  }
});
