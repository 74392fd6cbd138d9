/**
 * What a GGUF file says about itself, read from its header (./gguf-header.ts; only the metadata and tensor table
 * are read, never the weights): architecture, size in parameters, quantization, trained context, the numbers the
 * context arithmetic needs, and the chat template with its BOS/EOS tokens.
 */
import type { ModelArchitecture } from '../../shared/models';
import { parseArchitecture } from '../models/ollama-show';
import { CHATML_TEMPLATE, type TemplateTokens } from '../builtin/prompt/chat-template';
import { GgufFormatError, readGgufHeader } from './gguf-header';

export interface ModelFileInfo {
  architecture: string;
  arch: ModelArchitecture | null;
  parameterCount: number | null;
  quantization: string | null;
  trainedContext: number | null;
  /** The template the engine renders: the file's own, else llama.cpp's ChatML fallback. */
  template: string;
  hasOwnTemplate: boolean;
  tokens: TemplateTokens;
}

/** A file that cannot be used, with the reason in words for the user. */
export class UnusableModelError extends Error {}

type Flat = Record<string, unknown>;

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'bigint' ? Number(v) : null);

export async function readModelInfo(path: string): Promise<ModelFileInfo> {
  let header;
  try {
    header = await readGgufHeader(path);
  } catch (err) {
    if (err instanceof GgufFormatError) throw new UnusableModelError(err.message);
    throw new UnusableModelError(`The file could not be read: ${err instanceof Error ? err.message : String(err)}`);
  }
  const flat = header.metadata;
  const architecture = typeof flat['general.architecture'] === 'string' ? flat['general.architecture'] : null;
  if (!architecture) throw new UnusableModelError('The file has no architecture in its metadata (general.architecture): it is not a model llama.cpp can run.');
  if (architecture === 'clip' || architecture === 'mllama_vision') throw new UnusableModelError('This is a vision projector (mmproj), not a chat model: it belongs beside its model.');
  const tensors = header.tensors;
  if (tensors.length === 0) throw new UnusableModelError('The file holds no weights (no tensors): it may be a vocabulary-only file.');
  let parameterCount = 0;
  for (const t of tensors) parameterCount += t.dims.reduce((a, d) => a * d, 1);
  const template = typeof flat['tokenizer.chat_template'] === 'string' && flat['tokenizer.chat_template'] !== '' ? flat['tokenizer.chat_template'] : null;
  return {
    architecture,
    arch: parseArchitecture(flat),
    parameterCount: parameterCount > 0 ? parameterCount : null,
    quantization: quantizationOf(num(flat['general.file_type']), tensors.map((t) => t.type)),
    trainedContext: num(flat[`${architecture}.context_length`]),
    template: template ?? CHATML_TEMPLATE,
    hasOwnTemplate: template !== null,
    tokens: templateTokens(flat),
  };
}

/** BOS/EOS as the template sees them (their text), and whether the tokenizer adds them itself. */
function templateTokens(flat: Flat): TemplateTokens {
  const list = flat['tokenizer.ggml.tokens'];
  const text = (id: unknown): string => {
    const i = num(id);
    return Array.isArray(list) && i !== null && typeof list[i] === 'string' ? list[i] : '';
  };
  const model = flat['tokenizer.ggml.model'];
  // llama.cpp's defaults per tokenizer when the file does not say: SentencePiece adds BOS, BPE (gpt2) does not.
  const addBosDefault = model === 'llama' || model === 't5';
  return {
    bosToken: text(flat['tokenizer.ggml.bos_token_id']),
    eosToken: text(flat['tokenizer.ggml.eos_token_id']),
    addBos: typeof flat['tokenizer.ggml.add_bos_token'] === 'boolean' ? flat['tokenizer.ggml.add_bos_token'] : addBosDefault,
    addEos: flat['tokenizer.ggml.add_eos_token'] === true,
  };
}

/** llama.cpp's `llama_ftype` names by number (`MOSTLY_` dropped); kept here so main never loads node-llama-cpp. */
const FILE_TYPES: Record<number, string | undefined> = {
  0: 'F32', 1: 'F16', 2: 'Q4_0', 3: 'Q4_1', 7: 'Q8_0', 8: 'Q5_0', 9: 'Q5_1', 10: 'Q2_K', 11: 'Q3_K_S', 12: 'Q3_K_M',
  13: 'Q3_K_L', 14: 'Q4_K_S', 15: 'Q4_K_M', 16: 'Q5_K_S', 17: 'Q5_K_M', 18: 'Q6_K', 19: 'IQ2_XXS', 20: 'IQ2_XS',
  21: 'Q2_K_S', 22: 'IQ3_XS', 23: 'IQ3_XXS', 24: 'IQ1_S', 25: 'IQ4_NL', 26: 'IQ3_S', 27: 'IQ3_M', 28: 'IQ2_S',
  29: 'IQ2_M', 30: 'IQ4_XS', 31: 'IQ1_M', 32: 'BF16', 36: 'TQ1_0', 37: 'TQ2_0', 38: 'MXFP4_MOE', 39: 'NVFP4',
  40: 'Q1_0', 41: 'Q2_0',
};

/** `general.file_type` by name (`MOSTLY_Q4_K_M` -> `Q4_K_M`); else the most common tensor type. */
function quantizationOf(fileType: number | null, tensorTypes: number[]): string | null {
  if (fileType !== null) {
    const name = FILE_TYPES[fileType];
    if (name) return name;
  }
  const counts = new Map<number, number>();
  for (const t of tensorTypes) counts.set(t, (counts.get(t) ?? 0) + 1);
  const top = [...counts.entries()].sort((a, b) => b[1] - a[1])[0];
  return top ? `type ${top[0]}` : null;
}
