import type { JsonObject } from '../../../shared/json';
import { encode as encodeOpenAi } from '../openai/encode';
import type { EncodeInput } from '../types';

/**
 * The built-in engine's request record: the very body Firebrand would send llama-server (messages, tools,
 * sampling, `chat_template_kwargs`), so the prompt is rendered from the same inputs, plus what a local engine
 * needs stated: the context size Firebrand allocates and the model file (size and sha256) it runs. Stored by
 * digest and committed before generation, like every request (DESIGN.md §9).
 */
export function encode(input: EncodeInput): JsonObject {
  const body = encodeOpenAi({ ...input, stream: false });
  delete body['stream'];
  body['context_size'] = input.contextWindow ?? null;
  if (input.modelFile) body['model_file'] = { bytes: input.modelFile.bytes, sha256: input.modelFile.sha256 };
  return body;
}
