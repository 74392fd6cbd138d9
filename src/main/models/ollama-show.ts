/**
 * Parses Ollama's `/api/show` answer: capabilities, template, parameters, system prompt, license, and the
 * architecture numbers the context recommendation needs (model_info keys are prefixed by the architecture).
 */
import type { ModelArchitecture, ModelDetails } from '../../shared/models';

type Json = Record<string, unknown>;

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * Layers that attend only to a window, when model_info does not list them. gemma3 keeps one global layer in
 * six and gemma2 one in two; llama.cpp hard-codes the same patterns (`set_swa_pattern`). Any other
 * architecture without an explicit pattern is counted as all-global: it may overstate the cache, never undercount.
 */
const DEFAULT_SWA_PERIOD: Record<string, number> = { gemma3: 6, gemma2: 2, gemma3n: 5 };

/** `parameters` is Modelfile text: one `name value` per line, values possibly quoted, names repeated (stop). */
export function parseParameters(text: string): Record<string, (string | number)[]> {
  const out: Record<string, (string | number)[]> = {};
  for (const line of text.split('\n')) {
    const m = /^\s*(\S+)\s+(.*?)\s*$/.exec(line);
    if (!m?.[1] || m[2] === undefined) continue;
    let raw = m[2];
    let value: string | number;
    if (raw.startsWith('"') && raw.endsWith('"') && raw.length >= 2) {
      try {
        value = JSON.parse(raw) as string;
      } catch {
        value = raw.slice(1, -1);
      }
    } else {
      raw = raw.trim();
      value = raw !== '' && Number.isFinite(Number(raw)) ? Number(raw) : raw;
    }
    (out[m[1]] ??= []).push(value);
  }
  return out;
}

export function parseArchitecture(info: Json): ModelArchitecture | null {
  const arch = str(info['general.architecture']);
  if (!arch) return null;
  const key = (k: string) => info[`${arch}.${k}`];
  const blockCount = num(key('block_count'));
  if (blockCount === null || blockCount <= 0) return null;
  const headCount = firstNumber(key('attention.head_count'));
  const rawKv = key('attention.head_count_kv');
  let kvHeadsPerLayer: number[];
  if (Array.isArray(rawKv)) {
    // Hybrid models list KV heads per layer; recurrent (SSM) layers have 0 and cost no KV cache.
    kvHeadsPerLayer = Array.from({ length: blockCount }, (_, i) => num(rawKv[i]) ?? 0);
  } else {
    const kv = num(rawKv) ?? headCount;
    if (kv === null) return null;
    kvHeadsPerLayer = new Array<number>(blockCount).fill(kv);
  }
  const embeddingLength = num(key('embedding_length'));
  const derivedHead = embeddingLength !== null && headCount ? embeddingLength / headCount : null;
  const keyLength = num(key('attention.key_length')) ?? derivedHead;
  const valueLength = num(key('attention.value_length')) ?? derivedHead;
  if (keyLength === null || valueLength === null) return null;
  const slidingWindow = num(key('attention.sliding_window'));
  return {
    arch,
    blockCount,
    kvHeadsPerLayer,
    headCount,
    keyLength,
    valueLength,
    headDimDerived: num(key('attention.key_length')) === null || num(key('attention.value_length')) === null,
    embeddingLength,
    contextLength: num(key('context_length')),
    vocabSize: num(key('vocab_size')) ?? arrayLength(info['tokenizer.ggml.tokens']),
    slidingWindow,
    slidingLayers: slidingWindow === null ? new Array<boolean>(blockCount).fill(false) : slidingLayers(arch, blockCount, key('attention.sliding_window_pattern')),
  };
}

function slidingLayers(arch: string, blockCount: number, pattern: unknown): boolean[] {
  if (Array.isArray(pattern)) return Array.from({ length: blockCount }, (_, i) => pattern[i] === true);
  const period = num(pattern) ?? DEFAULT_SWA_PERIOD[arch];
  if (!period) return new Array<boolean>(blockCount).fill(false);
  // Every period-th layer (1-based) is global; the rest slide.
  return Array.from({ length: blockCount }, (_, i) => (i + 1) % period !== 0);
}

function firstNumber(v: unknown): number | null {
  if (Array.isArray(v)) return v.map(num).find((n): n is number => n !== null && n > 0) ?? null;
  return num(v);
}

function arrayLength(v: unknown): number | null {
  return Array.isArray(v) && v.length > 0 ? v.length : null;
}

export function parseShow(name: string, body: unknown, digest: string | null = null): ModelDetails {
  const show = isObj(body) ? body : {};
  const details = isObj(show.details) ? show.details : {};
  const info = isObj(show.model_info) ? show.model_info : {};
  return {
    name,
    capabilities: Array.isArray(show.capabilities) ? show.capabilities.filter((c): c is string => typeof c === 'string') : [],
    family: str(details.family),
    parameterSize: str(details.parameter_size),
    quantization: str(details.quantization_level),
    template: typeof show.template === 'string' ? show.template : '',
    parameters: typeof show.parameters === 'string' ? parseParameters(show.parameters) : {},
    system: typeof show.system === 'string' ? show.system : '',
    license: typeof show.license === 'string' ? show.license : '',
    digest,
    architecture: parseArchitecture(info),
  };
}
