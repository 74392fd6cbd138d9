/**
 * `generateScriptedModel(script, opts) -> path`: a tiny real GGUF that plays `script` (see README.md beside this
 * file and shared/tools/llama-server/SCRIPTED-MODELS.md). Files are cached by a hash of everything that shapes
 * them, so a test suite generates each model once per machine; nothing is committed as a binary.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHATML_TOOLS_THINK_TEMPLATE } from './chat-template';
import { writeGguf, type GgufValue } from './gguf-writer';
import { buildTensors, embeddingLengthFor, HEAD_DIM, transitionTable } from './model';
import type { Script } from './scripts';
import { BOS_ID, PROMPT_LAST_TOKEN, segmentScript, UNK_ID } from './vocab';

/** Bump when the file layout changes, so cached files of an older layout are not reused. */
const GENERATOR_VERSION = 1;

export interface ScriptedModelOptions {
  /** `llama.context_length` (the trained context); default 4096. Raise it with the server's `-c`. */
  contextLength?: number;
  /** Folder for generated files; default $FIREBRAND_SCRIPTED_MODELS or <tmp>/firebrand-scripted-models. */
  cacheDir?: string;
  /** Chat template; default the ChatML + tools + think template the conformance captures were made with. */
  chatTemplate?: string;
}

export interface ScriptedModelInfo {
  path: string;
  /** The script as the pieces (tokens) it was cut into, in order. */
  pieces: string[];
  vocabSize: number;
  embeddingLength: number;
}

export const SCRIPT_METADATA_KEY = 'firebrand.script.text';
export const SCRIPT_REPEAT_KEY = 'firebrand.script.repeat';

export function defaultCacheDir(): string {
  return process.env.FIREBRAND_SCRIPTED_MODELS ?? join(tmpdir(), 'firebrand-scripted-models');
}

/** Writes (or finds in the cache) the GGUF for `script` and returns its path. */
export function generateScriptedModel(script: Script, opts: ScriptedModelOptions = {}): string {
  return describeScriptedModel(script, opts).path;
}

/** Like `generateScriptedModel`, with the tokens and shape it chose (for tests and error messages). */
export function describeScriptedModel(script: Script, opts: ScriptedModelOptions = {}): ScriptedModelInfo {
  const contextLength = opts.contextLength ?? 4096;
  const template = opts.chatTemplate ?? CHATML_TOOLS_THINK_TEMPLATE;
  const { vocab, chain, pieces } = segmentScript(script.text);
  const vocabSize = vocab.tokens.length;
  const embeddingLength = embeddingLengthFor(vocabSize);
  const key = createHash('sha256')
    .update(JSON.stringify({ v: GENERATOR_VERSION, text: script.text, repeat: !!script.repeat, name: script.name, contextLength, template }))
    .digest('hex')
    .slice(0, 16);
  const dir = opts.cacheDir ?? defaultCacheDir();
  const path = join(dir, `${script.name}-${key}.gguf`);
  if (existsSync(path)) return { path, pieces, vocabSize, embeddingLength };

  const feedForwardLength = HEAD_DIM;
  const heads = embeddingLength / HEAD_DIM;
  const meta = new Map<string, GgufValue>([
    ['general.architecture', { type: 'string', value: 'llama' }],
    ['general.name', { type: 'string', value: `scripted-${script.name}` }],
    ['general.file_type', { type: 'u32', value: 0 }],
    ['llama.context_length', { type: 'u32', value: contextLength }],
    ['llama.embedding_length', { type: 'u32', value: embeddingLength }],
    ['llama.block_count', { type: 'u32', value: 1 }],
    ['llama.feed_forward_length', { type: 'u32', value: feedForwardLength }],
    ['llama.attention.head_count', { type: 'u32', value: heads }],
    ['llama.attention.head_count_kv', { type: 'u32', value: heads }],
    ['llama.rope.dimension_count', { type: 'u32', value: HEAD_DIM }],
    ['llama.rope.freq_base', { type: 'f32', value: 10000 }],
    ['llama.attention.layer_norm_rms_epsilon', { type: 'f32', value: 1e-6 }],
    ['llama.vocab_size', { type: 'u32', value: vocabSize }],
    ['tokenizer.ggml.model', { type: 'string', value: 'llama' }],
    ['tokenizer.ggml.tokens', { type: 'string[]', value: vocab.tokens }],
    ['tokenizer.ggml.scores', { type: 'f32[]', value: vocab.scores }],
    ['tokenizer.ggml.token_type', { type: 'i32[]', value: vocab.types }],
    ['tokenizer.ggml.bos_token_id', { type: 'u32', value: BOS_ID }],
    ['tokenizer.ggml.eos_token_id', { type: 'u32', value: vocab.eosId }],
    ['tokenizer.ggml.unknown_token_id', { type: 'u32', value: UNK_ID }],
    ['tokenizer.ggml.add_bos_token', { type: 'bool', value: false }],
    ['tokenizer.ggml.add_eos_token', { type: 'bool', value: false }],
    ['tokenizer.ggml.add_space_prefix', { type: 'bool', value: false }],
    ['tokenizer.chat_template', { type: 'string', value: template }],
    [SCRIPT_METADATA_KEY, { type: 'string', value: script.text }],
    [SCRIPT_REPEAT_KEY, { type: 'bool', value: !!script.repeat }],
  ]);
  const next = transitionTable(chain, PROMPT_LAST_TOKEN, vocab.eosId, !!script.repeat);
  const tensors = buildTensors({ vocabSize, embeddingLength, feedForwardLength }, next, vocab.eosId);

  mkdirSync(dir, { recursive: true });
  // Written beside and renamed: test files running in parallel may generate the same model at once.
  const partial = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.partial`;
  writeGguf(partial, meta, tensors);
  renameSync(partial, path);
  return { path, pieces, vocabSize, embeddingLength };
}
