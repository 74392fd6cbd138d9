/**
 * The scripted models in a real llama-server, before any Firebrand code is involved: each script plays as the
 * generator's README says, with the app's own tools offered. If one of these fails, every other real-tier test
 * is suspect, so they run first and name the script. (The app's three tools cost about 1,900 prompt tokens with
 * these byte-fallback tokenizers, so a server that is offered them needs `-c` well above that.)
 */
import { afterAll, describe, expect, it } from 'vitest';
import { generateScriptedModel } from '../support/scripted-gguf/generate';
import { CALL_DATETIME, CALL_READ_DOCUMENT, callFetchUrl, PLAIN_ANSWER, REASONING, SCRIPTS, type Script } from '../support/scripted-gguf/scripts';
import { startLlamaServer, type LlamaServer } from './support/llama-server';
import { appTools, chatStream, type WireSummary } from './support/wire';

const started: LlamaServer[] = [];
afterAll(async () => {
  await Promise.all(started.map((s) => s.stop()));
});

async function play(script: Script, reasoningFormat: 'deepseek' | 'none' = 'deepseek', ctx?: number): Promise<WireSummary> {
  const server = await startLlamaServer({ model: generateScriptedModel(script), reasoningFormat, ...(ctx ? { ctx } : {}) });
  started.push(server);
  try {
    return await chatStream(server.url, { messages: [{ role: 'user', content: 'What time is it in Paris?' }], tools: appTools() });
  } finally {
    await server.stop();
  }
}

const datetimeArgs = JSON.stringify(CALL_DATETIME.arguments).replace(/":/g, '": ');

describe('scripted models in a real llama-server', () => {
  it('plain: the answer, then stop', async () => {
    expect(await play(SCRIPTS.plain)).toMatchObject({ status: 200, content: PLAIN_ANSWER, reasoning: '', calls: [], finish: ['stop'] });
  });

  it('reasoning: apart with --reasoning-format deepseek, inline with none', async () => {
    expect(await play(SCRIPTS.reasoning)).toMatchObject({ content: PLAIN_ANSWER, reasoning: `${REASONING}\n`, finish: ['stop'] });
    const inline = await play(SCRIPTS.reasoning, 'none');
    expect(inline).toMatchObject({ content: SCRIPTS.reasoning.text, reasoning: '', finish: ['stop'] });
  });

  it.each([
    ['current_datetime', SCRIPTS.callDatetime, CALL_DATETIME],
    ['read_document', SCRIPTS.callReadDocument, CALL_READ_DOCUMENT],
    ['fetch_url', callFetchUrl('http://127.0.0.1:9/page'), { name: 'fetch_url', arguments: { url: 'http://127.0.0.1:9/page' } }],
  ] as const)('a call to the app tool %s arrives as tool_calls', async (_name, script, call) => {
    const wire = await play(script);
    expect(wire.finish).toEqual(['tool_calls']);
    expect(wire.calls).toHaveLength(1);
    expect(wire.calls[0]?.name).toBe(call.name);
    expect(JSON.parse(wire.calls[0]?.arguments ?? '')).toEqual(call.arguments);
  });

  it('two calls in one answer, reasoning then a call, text then a call', async () => {
    const two = await play(SCRIPTS.twoCalls);
    expect(two.calls.map((c) => JSON.parse(c.arguments) as unknown)).toEqual([{ timezone: 'Europe/Paris' }, { timezone: 'Asia/Tokyo' }]);
    const thought = await play(SCRIPTS.reasoningThenCall);
    expect(thought).toMatchObject({ reasoning: 'The user wants the time.\n', calls: [{ name: 'current_datetime', arguments: datetimeArgs }], finish: ['tool_calls'] });
    const said = await play(SCRIPTS.textThenCall);
    expect(said).toMatchObject({ content: 'Let me look at the clock.\n', calls: [{ name: 'current_datetime' }], finish: ['tool_calls'] });
  });

  it('unclosed think: everything is reasoning (deepseek) or inline (none), and the turn stops', async () => {
    expect(await play(SCRIPTS.unclosedThink)).toMatchObject({ content: '', reasoning: 'The user asks about the weather and I keep wondering', finish: ['stop'] });
    expect(await play(SCRIPTS.unclosedThink, 'none')).toMatchObject({ content: SCRIPTS.unclosedThink.text, finish: ['stop'] });
  });

  it('malformed arguments: the tool grammar refuses them and the call runs on until the context ends it', async () => {
    const wire = await play(SCRIPTS.malformedCall, 'deepseek', 2304);
    expect(wire.finish).toEqual(['length']);
    expect(wire.calls[0]?.name).toBe('current_datetime');
    expect(() => JSON.parse(wire.calls[0]?.arguments ?? '')).toThrow();
  });

  it('long: the answer repeats until the context is full', async () => {
    const wire = await play(SCRIPTS.long, 'deepseek', 2560);
    expect(wire.finish).toEqual(['length']);
    expect(wire.content.startsWith(SCRIPTS.long.text + SCRIPTS.long.text)).toBe(true);
  });
});
