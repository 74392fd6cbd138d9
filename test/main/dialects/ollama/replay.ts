// Test helpers shared by the Ollama and Anthropic dialect tests: replay a fixture's exact bytes through
// framing + a dialect parser at several chunkings, and summarize the parts while checking their grammar.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { JsonValue } from '../../../../src/shared/json';
import type { FinishPart, StreamPart } from '../../../../src/shared/parts';
import type { Usage } from '../../../../src/shared/turn';
import { frameEvents } from '../../../../src/main/leg/framing';
import type { Dialect, ParserOptions } from '../../../../src/main/dialects/types';

export function fixture(dir: 'ollama' | 'anthropic', name: string): Uint8Array {
  return new Uint8Array(readFileSync(fileURLToPath(new URL(`../../../fixtures/${dir}/${name}`, import.meta.url))));
}

/** A small seeded PRNG so "random" chunkings are reproducible. */
function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function cut(bytes: Uint8Array, sizes: () => number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; ) {
    const n = Math.max(1, sizes());
    out.push(bytes.slice(i, i + n));
    i += n;
  }
  return out;
}

/** Whole, 1 byte, 5 bytes and two seeded random cuttings (1..40 bytes). */
export function chunkings(bytes: Uint8Array): Array<[string, Uint8Array[]]> {
  const r1 = mulberry32(7);
  const r2 = mulberry32(4242);
  return [
    ['whole', [bytes]],
    ['1-byte', cut(bytes, () => 1)],
    ['5-byte', cut(bytes, () => 5)],
    ['random-7', cut(bytes, () => 1 + Math.floor(r1() * 40))],
    ['random-4242', cut(bytes, () => 1 + Math.floor(r2() * 40))],
  ];
}

async function* source(chunks: Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const c of chunks) yield c;
}

export async function replay(dialect: Dialect, chunks: Uint8Array[], options?: ParserOptions): Promise<StreamPart[]> {
  const parser = dialect.createParser(options);
  const parts: StreamPart[] = [];
  for await (const event of frameEvents(source(chunks), dialect.framing)) parts.push(...parser.push(event));
  parts.push(...parser.end());
  return parts;
}

export interface ToolCallSummary {
  toolCallId: string;
  name: string;
  state: 'complete' | 'invalid' | 'truncated' | 'open';
  argumentsRaw: string;
  arguments?: JsonValue;
  error?: string;
}

export interface Summary {
  text: string;
  native: string;
  inline: string;
  toolCalls: ToolCallSummary[];
  errors: string[];
  usage?: Usage;
  finish: FinishPart;
}

/** Folds parts into what they say, asserting the grammar: ids unique, deltas inside start/end, finish last. */
export function summarize(parts: StreamPart[]): Summary {
  const open = new Map<string, 'text' | 'reasoning-native' | 'reasoning-inline' | 'tool'>();
  const seen = new Set<string>();
  const calls = new Map<string, ToolCallSummary>();
  const s: Omit<Summary, 'finish'> & { finish?: FinishPart } = { text: '', native: '', inline: '', toolCalls: [], errors: [] };
  parts.forEach((p, i) => {
    expect(s.finish, 'nothing after finish').toBeUndefined();
    switch (p.type) {
      case 'text-start':
      case 'reasoning-start':
      case 'tool-call-start': {
        expect(seen.has(p.id), `id ${p.id} reused`).toBe(false);
        seen.add(p.id);
        if (p.type === 'text-start') open.set(p.id, 'text');
        else if (p.type === 'reasoning-start') open.set(p.id, p.origin === 'native' ? 'reasoning-native' : 'reasoning-inline');
        else {
          open.set(p.id, 'tool');
          const call: ToolCallSummary = { toolCallId: p.toolCallId, name: p.name, state: 'open', argumentsRaw: '' };
          calls.set(p.id, call);
          s.toolCalls.push(call);
        }
        break;
      }
      case 'text-delta':
      case 'reasoning-delta':
      case 'tool-call-delta': {
        const kind = open.get(p.id);
        expect(kind, `delta for a closed id ${p.id}`).toBeDefined();
        if (kind === 'text') s.text += p.delta;
        else if (kind === 'reasoning-native') s.native += p.delta;
        else if (kind === 'reasoning-inline') s.inline += p.delta;
        else {
          const call = calls.get(p.id);
          if (call) call.argumentsRaw += p.delta;
        }
        break;
      }
      case 'text-end':
      case 'reasoning-end':
        expect(open.delete(p.id), `end for a closed id ${p.id}`).toBe(true);
        break;
      case 'tool-call-end': {
        expect(open.delete(p.id), `end for a closed id ${p.id}`).toBe(true);
        const call = calls.get(p.id);
        if (call) {
          call.state = p.state;
          if (p.state === 'complete') call.arguments = p.arguments;
          else call.error = p.error;
        }
        break;
      }
      case 'usage':
        s.usage = p.usage;
        break;
      case 'error':
        s.errors.push(p.message);
        break;
      case 'finish':
        expect(i, 'finish is the last part').toBe(parts.length - 1);
        expect(open.size, 'every run closed before finish').toBe(0);
        s.finish = p;
        break;
    }
  });
  expect(s.finish, 'a finish part').toBeDefined();
  return s as Summary;
}
