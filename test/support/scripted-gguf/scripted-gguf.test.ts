import { mkdtempSync, openSync, readSync, closeSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gguf, type GGUFParseOutput } from '@huggingface/gguf';
import { afterAll, describe, expect, it } from 'vitest';
import { CHATML_TOOLS_THINK_TEMPLATE } from './chat-template';
import { describeScriptedModel, generateScriptedModel, SCRIPT_METADATA_KEY } from './generate';
import { callFetchUrl, SCRIPTS, type Script } from './scripts';
import { PROMPT_LAST_TOKEN, segmentScript, TOKEN_TYPE } from './vocab';

const dir = mkdtempSync(join(tmpdir(), 'firebrand-gguf-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Parsed = GGUFParseOutput;

async function parse(path: string): Promise<Parsed> {
  return gguf(path, { allowLocalFile: true });
}

function meta(p: Parsed, key: string): unknown {
  return (p.metadata as Record<string, unknown>)[key];
}

/** Reads a tensor's F32 values straight from the file, at the offset the GGUF reader found. */
function readTensor(path: string, p: Parsed, name: string): Float32Array {
  const info = p.tensorInfos.find((t) => t.name === name);
  if (!info) throw new Error(`no tensor ${name}`);
  const count = info.shape.reduce((a, b) => a * Number(b), 1);
  const buf = Buffer.alloc(count * 4);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, buf, 0, buf.length, Number(p.tensorDataOffset + info.offset));
  } finally {
    closeSync(fd);
  }
  return new Float32Array(buf.buffer, buf.byteOffset, count);
}

/** Greedy decoding with the file's own weights: from the prompt's last token, follow each column's argmax. */
function playFromWeights(path: string, p: Parsed, maxTokens: number): { text: string; endedWithEos: boolean } {
  const tokens = meta(p, 'tokenizer.ggml.tokens') as string[];
  const types = meta(p, 'tokenizer.ggml.token_type') as number[];
  const eos = meta(p, 'tokenizer.ggml.eos_token_id') as number;
  const D = meta(p, 'llama.embedding_length') as number;
  const out = readTensor(path, p, 'output.weight');
  const embd = readTensor(path, p, 'token_embd.weight');
  let t = PROMPT_LAST_TOKEN;
  let text = '';
  for (let n = 0; n < maxTokens; n++) {
    // The hidden state is token t's embedding (one-hot): find its hot dimension, then the best logit.
    const hot = embd.subarray(t * D, t * D + D).indexOf(1);
    let best = -1;
    let bestLogit = -Infinity;
    for (let v = 0; v < tokens.length; v++) {
      const logit = out[v * D + hot] ?? 0;
      if (logit > bestLogit) [best, bestLogit] = [v, logit];
    }
    if (best === eos) return { text, endedWithEos: true };
    const piece = tokens[best] ?? '';
    text += types[best] === TOKEN_TYPE.byte ? String.fromCharCode(parseInt(piece.slice(3, 5), 16)) : piece.replaceAll('\u2581', ' ');
    t = best;
  }
  return { text, endedWithEos: false };
}

describe('scripted GGUF generator', () => {
  const all: Script[] = [...Object.values(SCRIPTS), callFetchUrl('http://127.0.0.1:8000/page')];

  it.each(all.filter((s) => !s.repeat).map((s) => [s.name, s] as const))('%s: parses as GGUF v3 whose weights play the script, then end the turn', async (_name, script) => {
    const path = generateScriptedModel(script, { cacheDir: dir });
    const p = await parse(path);
    expect(meta(p, 'version')).toBe(3);
    expect(meta(p, 'tensor_count')).toBe(12n);
    expect(meta(p, 'general.architecture')).toBe('llama');
    expect(meta(p, 'tokenizer.ggml.model')).toBe('llama');
    expect(meta(p, 'tokenizer.chat_template')).toBe(CHATML_TOOLS_THINK_TEMPLATE);
    expect(meta(p, SCRIPT_METADATA_KEY)).toBe(script.text);
    const tokens = meta(p, 'tokenizer.ggml.tokens') as string[];
    expect(tokens[meta(p, 'tokenizer.ggml.eos_token_id') as number]).toBe('<|im_end|>');
    expect(tokens[PROMPT_LAST_TOKEN]).toBe('<0x0A>');
    expect(meta(p, 'llama.vocab_size')).toBe(tokens.length);
    const D = meta(p, 'llama.embedding_length') as number;
    expect(D % 64).toBe(0);
    expect(tokens.length).toBeLessThanOrEqual(D);
    expect(p.tensorInfos.map((t) => t.name)).toContain('blk.0.ffn_down.weight');
    expect(p.tensorInfos.find((t) => t.name === 'output.weight')?.shape).toEqual([BigInt(D), BigInt(tokens.length)]);

    expect(playFromWeights(path, p, 200)).toEqual({ text: script.text, endedWithEos: true });
  });

  it('the long script loops instead of ending, and a larger context is written into the file', async () => {
    const path = generateScriptedModel(SCRIPTS.long, { cacheDir: dir, contextLength: 16384 });
    const p = await parse(path);
    expect(meta(p, 'llama.context_length')).toBe(16384);
    const played = playFromWeights(path, p, 100);
    expect(played.endedWithEos).toBe(false);
    expect(played.text.startsWith(SCRIPTS.long.text + SCRIPTS.long.text)).toBe(true);
  });

  it('caches by content: the same script gives the same file, another context another file', () => {
    const a = generateScriptedModel(SCRIPTS.plain, { cacheDir: dir });
    const mtime = statSync(a).mtimeMs;
    expect(generateScriptedModel(SCRIPTS.plain, { cacheDir: dir })).toBe(a);
    expect(statSync(a).mtimeMs).toBe(mtime);
    expect(generateScriptedModel(SCRIPTS.plain, { cacheDir: dir, contextLength: 512 })).not.toBe(a);
  });

  it('spells a repeated word or tag with other pieces, so every token occurs once', () => {
    const { pieces, chain } = segmentScript('<tool_call>a</tool_call>\n<tool_call>b</tool_call> the the the');
    expect(pieces.join('')).toBe('<tool_call>a</tool_call>\n<tool_call>b</tool_call> the the the');
    expect(new Set(chain).size).toBe(chain.length);
    expect(chain).not.toContain(PROMPT_LAST_TOKEN);
  });

  it('refuses a script it cannot play, saying why', () => {
    expect(() => segmentScript('\n')).toThrow(/only once/);
    expect(() => segmentScript('a a a a')).toThrow(/only once/);
    expect(() => segmentScript('')).toThrow(/empty script/);
  });

  it('sizes the model to its vocabulary', () => {
    const info = describeScriptedModel(SCRIPTS.plain, { cacheDir: dir });
    expect(info.embeddingLength).toBeGreaterThanOrEqual(info.vocabSize);
    expect(info.pieces.join('')).toBe(SCRIPTS.plain.text);
  });
});
