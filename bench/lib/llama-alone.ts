/**
 * The built-in engine's floor: node-llama-cpp alone in one process, nothing of Firebrand.
 * `node --import tsx bench/lib/llama-alone.ts MODEL CONTEXT THREADS` loads the model with that context, prints
 * READY, then answers each stdin line `{"prompt": "...", "addBos": bool}` with one JSON line: the prompt's
 * tokens, the time from the call to the first token's text, the tokens generated and the time from the first to
 * the last. It generates as the engine does (the same backend choice, sampling and stop when the context is
 * full) from an empty context (the whole prompt evaluated), and turns each token into text, as any consumer
 * needs; that is all.
 */
import { createInterface } from 'node:readline';
import { getLlama, LlamaLogLevel, type Token } from 'node-llama-cpp';

const [modelPath, contextArg, threadsArg] = process.argv.slice(2);
const contextSize = Number(contextArg);
const threads = Number(threadsArg);

const llama = await getLlama({ build: 'never', skipDownload: true, progressLogs: false, gpu: 'auto', maxThreads: threads, logLevel: LlamaLogLevel.error });
const model = await llama.loadModel({ modelPath: modelPath! });
const context = await model.createContext({ contextSize, sequences: 1, threads, failedCreationRemedy: false });
const sequence = context.getSequence();
console.log('READY');

async function generate(prompt: string, addBos: boolean): Promise<{ promptTokens: number; firstMs: number; tokens: number; generationMs: number; chars: number }> {
  const called = performance.now();
  const body = model.tokenize(prompt, true);
  const tokens: Token[] = addBos && model.tokens.bos !== null ? [model.tokens.bos, ...body] : body;
  if (sequence.nextTokenIndex > 0) await sequence.eraseContextTokenRanges([{ start: 0, end: sequence.nextTokenIndex }]);
  let first = 0;
  let last = 0;
  let count = 0;
  let chars = 0;
  // llama-server's default sampling, as the engine uses it.
  for await (const token of sequence.evaluate(tokens, { temperature: 0.8, topK: 40, topP: 0.95, minP: 0.05 })) {
    if (model.isEogToken(token)) break;
    const text = model.detokenize([token]);
    last = performance.now();
    if (count === 0) first = last;
    count++;
    chars += text.length;
    if (sequence.nextTokenIndex + 1 >= contextSize) break;
  }
  return { promptTokens: tokens.length, firstMs: first - called, tokens: count, generationMs: last - first, chars };
}

for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === '') continue;
  const { prompt, addBos } = JSON.parse(line) as { prompt: string; addBos: boolean };
  console.log(JSON.stringify(await generate(prompt, addBos)));
}
await context.dispose();
await model.dispose();
await llama.dispose();
