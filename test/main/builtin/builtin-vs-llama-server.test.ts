/**
 * "Same prompt, same answer": one scripted model run by the built-in engine and by the real llama-server
 * (`--jinja`), each through Firebrand's own engine (its builtin and openai dialects). The prompt must be the same
 * tokens (the built-in engine's exact count equals llama-server's prompt_tokens, on the first request and on the
 * one that carries a tool call and its result), and the answer must come out the same: text, reasoning, tool
 * calls and stop.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../../src/main/services';
import { turnOutput } from '../../../src/shared/reasoning/drain';
import type { ToolCallBlock, Turn } from '../../../src/shared/turn';
import { SCRIPTS } from '../../support/scripted-gguf/scripts';
import { builtinServices, cleanup, dataDirWith } from './helpers';
import { findLlamaServer, startLlamaServer } from '../../real/support/llama-server';

const binary = findLlamaServer();
if (binary.path === null) console.log(`built-in vs llama-server comparison skipped: ${binary.why}`);

const CASES = ['plain', 'reasoning', 'callDatetime', 'twoCalls', 'textThenCall', 'reasoningThenCall'] as const;
/** Think mode per case: `off` reaches both as the template's enable_thinking=false (chat_template_kwargs). */
const THINK: Partial<Record<(typeof CASES)[number], 'off'>> = { reasoning: 'off' };

let dir: string;
let services: Services;

beforeAll(() => {
  dir = dataDirWith(Object.fromEntries(CASES.map((k) => [k, SCRIPTS[k]])));
  services = builtinServices(dir, { chat: { maxSteps: 2 } });
});
afterAll(() => cleanup(services, dir));

/** What a user sees of an answer, and what the model was sent. */
function outcome(turns: Turn[]) {
  return turns
    .filter((t) => t.role === 'assistant')
    .map((t) => {
      const out = turnOutput(t);
      return {
        reasoning: out.reasoning.trim(),
        content: out.content.trim(),
        calls: t.blocks.filter((b): b is ToolCallBlock => b.type === 'tool_call').map((c) => ({ name: c.name, state: c.state, arguments: c.arguments })),
        stop: t.stop,
        promptTokens: t.usage?.inputTokens,
      };
    });
}

async function answer(model: string, connectionId: string, think: 'off' | undefined): Promise<Turn[]> {
  const sent = await services.handlers['chat:send']({ conversationId: null, text: 'What is the weather in Paris, and the time?', model, connectionId, ...(think ? { think } : {}) });
  await expect.poll(() => services.chat.activeCount, { timeout: 60_000, interval: 50 }).toBe(0);
  return (await services.handlers['conversations:open']({ conversationId: sent.conversationId })).turns;
}

describe.skipIf(binary.path === null)('built-in engine and llama-server answer the same prompt the same way', () => {
  for (const key of CASES) {
    it(`${key}${THINK[key] ? ` (think ${THINK[key]})` : ''}: same prompt tokens, same answer`, async () => {
      const server = await startLlamaServer({ model: `${dir}/models/${key}.gguf`, threads: 1 });
      try {
        const conn = await services.handlers['connections:save']({ kind: 'llama-server', label: `llama-server ${key}`, baseUrl: server.url });
        // llama-server serves one model; its window is its own n_ctx, so the built-in engine gets the same 4096.
        await services.handlers['library:set-context']({ file: `${key}.gguf`, contextWindow: 4096 });
        const viaServer = outcome(await answer(`${key}.gguf`, conn.id, THINK[key]));
        const builtin = outcome(await answer(`${key}.gguf`, 'builtin', THINK[key]));
        expect(builtin).toEqual(viaServer);
        expect(builtin[0]?.promptTokens).toBeGreaterThan(20);
        await services.handlers['connections:delete']({ id: conn.id });
      } finally {
        await server.stop();
      }
    });
  }
});
