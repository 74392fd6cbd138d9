/**
 * The built-in engine's floor: node-llama-cpp alone in one process, nothing of Firebrand.
 * `node --import tsx bench/lib/llama-alone.ts MODEL CONTEXT THREADS` loads the model with that context, prints
 * READY, then answers each stdin line `{"prompt": "...", "addBos": bool}` with one JSON line: the prompt's
 * tokens, the time from the call to the first token's text, the tokens generated and the time from the first to
 * the last. It generates as the engine does (the same backend choice, sampling and stop when the context is
 * full) from an empty context (the whole prompt evaluated), and turns each token into text, as any consumer
 * needs; that is all. A line with `"keep": true` is the next message of the same chat: the context keeps what
 * the prompt shares with what it already holds (the chat so far) and evaluates the rest, as the engine does and
 * as any one-process chat on this library would.
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

async function generate(prompt: string, addBos: boolean, keep: boolean): Promise<{ promptTokens: number; firstMs: number; tokens: number; generationMs: number; chars: number; cachedTokens: number }> {
  const called = performance.now();
  const body = model.tokenize(prompt, true);
  const tokens: Token[] = addBos && model.tokens.bos !== null ? [model.tokens.bos, ...body] : body;
  let common = 0;
  if (keep) {
    const held = sequence.contextTokens;
    while (common < Math.min(held.length, tokens.length) && held[common] === tokens[common]) common++;
    // The last prompt token is evaluated again: its logits choose the first token.
    common = Math.min(common, tokens.length - 1);
  }
  if (sequence.nextTokenIndex > common) await sequence.eraseContextTokenRanges([{ start: common, end: sequence.nextTokenIndex }]);
  let first = 0;
  let last = 0;
  let count = 0;
  let chars = 0;
  // llama-server's default sampling, as the engine uses it.
  for await (const token of sequence.evaluate(tokens.slice(common), { temperature: 0.8, topK: 40, topP: 0.95, minP: 0.05 })) {
    if (model.isEogToken(token)) break;
    const text = model.detokenize([token]);
    last = performance.now();
    if (count === 0) first = last;
    count++;
    chars += text.length;
    if (sequence.nextTokenIndex + 1 >= contextSize) break;
  }
  return { promptTokens: tokens.length, firstMs: first - called, tokens: count, generationMs: last - first, chars, cachedTokens: common };
}

for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === '') continue;
  const { prompt, addBos, keep } = JSON.parse(line) as { prompt: string; addBos: boolean; keep?: boolean };
  console.log(JSON.stringify(await generate(prompt, addBos, keep === true)));
}
await context.dispose();
await model.dispose();
await llama.dispose();
