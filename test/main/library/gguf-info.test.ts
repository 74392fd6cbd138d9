import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readModelInfo, UnusableModelError } from '../../../src/main/library/gguf-info';
import { generateScriptedModel } from '../../support/scripted-gguf/generate';
import { SCRIPTS } from '../../support/scripted-gguf/scripts';

let dir: string;
let model: Buffer;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'firebrand-gguf-'));
  model = readFileSync(generateScriptedModel(SCRIPTS.plain));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function reason(bytes: Uint8Array | string): Promise<string> {
  const path = join(dir, `f-${Math.random().toString(36).slice(2)}.gguf`);
  writeFileSync(path, bytes);
  const err = await readModelInfo(path).then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(UnusableModelError);
  return (err as Error).message;
}

describe('GGUF header: what the library lists', () => {
  it('reads a model: architecture, parameters, quantization, trained context, template and its tokens', async () => {
    const path = join(dir, 'ok.gguf');
    writeFileSync(path, model);
    const info = await readModelInfo(path);
    expect(info).toMatchObject({ architecture: 'llama', quantization: 'F32', trainedContext: 4096, hasOwnTemplate: true, tokens: { bosToken: '<s>', eosToken: '<|im_end|>', addBos: false } });
    expect(info.arch).toMatchObject({ blockCount: 1, contextLength: 4096 });
    expect(info.parameterCount).toBeGreaterThan(100_000);
  });

  it('gives a reason, never a hang or a crash, for every kind of broken file', async () => {
    expect(await reason('plain text, not a model')).toMatch(/^Not a GGUF file \(it starts with "plai"/);
    expect(await reason('')).toMatch(/empty/);
    // The magic, then garbage: node-llama-cpp's own reader never settles on this one.
    expect(await reason(Buffer.concat([Buffer.from('GGUF'), Buffer.from([3, 0, 0, 0]), Buffer.from('garbage')]))).toMatch(/ends inside its header/);
    const v9 = Buffer.from(model);
    v9.writeUInt32LE(9, 4);
    expect(await reason(v9)).toMatch(/GGUF version 9/);
    expect(await reason(model.subarray(0, 4000))).toMatch(/ends inside its header/);
    expect(await reason(model.subarray(0, model.length - 1000))).toMatch(/shorter than its weights .* incomplete/);
    const hugeString = Buffer.from(model);
    // The first key's length (at byte 24) claims far more than any file holds.
    hugeString.writeBigUInt64LE(1n << 40n, 24);
    expect(await reason(hugeString)).toMatch(/corrupt/);
  });
});
