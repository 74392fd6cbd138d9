import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_WINDOWS_KEY } from '../../../src/main/builtin/builtin-service';
import { ModelSettingsStore } from '../../../src/main/models/model-settings-store';
import type { Services } from '../../../src/main/services';
import { turnText } from '../../../src/shared/turn';
import { SCRIPTS } from '../../support/scripted-gguf/scripts';
import { ask, builtinServices, cleanup, dataDirWith } from './helpers';

let dir: string;
let services: Services;

beforeAll(() => {
  dir = dataDirWith({ plain: SCRIPTS.plain, long: { script: SCRIPTS.long, opts: { contextLength: 8192 } }, brief: { script: SCRIPTS.long, opts: { contextLength: 2048 } } });
  const plain = readFileSync(join(dir, 'models', 'plain.gguf'));
  // A download cut short, and a file that is no model at all.
  writeFileSync(join(dir, 'models', 'broken.gguf'), plain.subarray(0, Math.floor(plain.length / 2)));
  writeFileSync(join(dir, 'models', 'notes.gguf'), 'These are my notes, not a model.\n');
  // A whole file whose header reads well but names an architecture llama.cpp does not know: usable to the
  // listing, refused by llama.cpp at load.
  writeFileSync(join(dir, 'models', 'strange.gguf'), withArchitecture(plain, 'lxama'));
  services = builtinServices(dir);
});
afterAll(() => cleanup(services, dir));

/** The GGUF with its `general.architecture` value replaced by another of the same length. */
function withArchitecture(gguf: Buffer, arch: string): Buffer {
  const out = Buffer.from(gguf);
  const key = Buffer.from('general.architecture');
  // key, then u32 value type (string) and u64 length, then the value
  const at = out.indexOf(key) + key.length + 4 + 8;
  expect(out.subarray(at, at + arch.length).toString()).toBe('llama');
  out.write(arch, at);
  return out;
}

/** Sends to `long` and resolves once some of the endless answer has been saved. */
async function startLongAnswer() {
  const sent = await services.handlers['chat:send']({ conversationId: null, text: 'Count for me.', model: 'long.gguf', connectionId: 'builtin' });
  await expect
    .poll(() => turnText(services.db.prepare('SELECT blocks FROM turns WHERE id = ?').get(sent.assistantTurn.id) ? openTurn(sent.assistantTurn.id) : { blocks: [] }).length, { timeout: 60_000, interval: 50 })
    .toBeGreaterThan(40);
  return sent;
}

function openTurn(id: string) {
  const row = services.db.prepare('SELECT blocks FROM turns WHERE id = ?').get(id) as { blocks: string };
  return { blocks: JSON.parse(row.blocks) as never[] };
}

async function settled(conversationId: string) {
  await expect.poll(() => services.chat.activeCount, { timeout: 60_000, interval: 50 }).toBe(0);
  return (await services.handlers['conversations:open']({ conversationId })).turns;
}

describe('built-in engine: faults end one answer, never the app', () => {
  it('lists a corrupt GGUF and a non-GGUF as unusable with the reason, beside the usable models', async () => {
    const entries = await services.handlers['library:list']({});
    const byFile = Object.fromEntries(entries.map((e) => [e.file, e]));
    expect(byFile['plain.gguf']).toMatchObject({ state: 'usable', architecture: 'llama', trainedContext: 4096, tools: true, thinking: true, quantization: 'F32' });
    expect(byFile['broken.gguf']).toMatchObject({ state: 'unusable', reason: expect.stringMatching(/shorter than its weights|ends inside its header/) });
    expect(byFile['notes.gguf']).toMatchObject({ state: 'unusable', reason: expect.stringMatching(/^Not a GGUF file/) });
    const { turns } = await ask(services, 'broken.gguf', 'Hello?');
    expect(turns.at(-1)).toMatchObject({ role: 'assistant', status: 'error', error: expect.stringMatching(/broken\.gguf cannot be used/) });
  });

  it('says why llama.cpp refused a file, naming it, in the chat and in Models → Load', async () => {
    const entries = await services.handlers['library:list']({});
    expect(entries.find((e) => e.file === 'strange.gguf')).toMatchObject({ state: 'usable', architecture: 'lxama' });
    const { turns } = await ask(services, 'strange.gguf', 'Hello?');
    const answer = turns.at(-1)!;
    expect(answer).toMatchObject({ role: 'assistant', status: 'error' });
    expect(answer.error).toMatch(/^strange\.gguf could not be loaded: .*unknown model architecture: 'lxama'/);
    expect(answer.error).not.toMatch(/window/);
    const load = services.handlers['builtin:load']({ file: 'strange.gguf' });
    await expect(load).rejects.toMatchObject({ name: 'UserFacingError', message: expect.stringMatching(/^strange\.gguf could not be loaded: .*unknown model architecture: 'lxama'/) });
  });

  it('stops a long answer on request and keeps what arrived', async () => {
    const sent = await startLongAnswer();
    expect(await services.handlers['chat:stop']({ turnId: sent.assistantTurn.id })).toEqual({ stopped: true });
    const turns = await settled(sent.conversationId);
    const answer = turns.find((t) => t.id === sent.assistantTurn.id)!;
    expect(answer).toMatchObject({ status: 'aborted', stop: 'aborted' });
    expect(turnText(answer)).toMatch(/^Counting sheep slowly/);
  });

  // Round 7, engine #1: an answer on plain.gguf sent while long.gguf answered said "Loading plain.gguf" (it was
  // waiting for the other answer), and Stop on it took effect only when the long answer ended.
  it('says an answer waits behind one on another model, and ends it at once on Stop while the other goes on', async () => {
    if (services.library.builtin.isLoaded('plain.gguf')) await services.handlers['builtin:unload']({ file: 'plain.gguf' });
    const long = await startLongAnswer();
    const waiting = await services.handlers['chat:send']({ conversationId: null, text: 'Hello?', model: 'plain.gguf', connectionId: 'builtin' });
    await expect
      .poll(() => services.library.builtin.waiting.list())
      .toEqual([{ turnId: waiting.assistantTurn.id, file: 'plain.gguf', state: 'queued', ahead: [{ file: 'long.gguf', answer: true }], thenLoads: true }]);
    expect(await services.handlers['chat:stop']({ turnId: waiting.assistantTurn.id })).toEqual({ stopped: true });
    await expect.poll(async () => (await services.handlers['conversations:open']({ conversationId: waiting.conversationId })).turns.at(-1)?.status, { timeout: 30_000 }).toBe('aborted');
    // The long answer is still going: the stop ended the waiting one, not by waiting for the other to end.
    expect((await services.handlers['conversations:open']({ conversationId: long.conversationId })).turns.at(-1)?.status).toBe('streaming');
    // The waiting entry leaves as its stop is handled, which may end a moment after the turn is written (a busy machine).
    await expect.poll(() => services.library.builtin.waiting.list()).toEqual([]);
    await services.handlers['chat:stop']({ turnId: long.assistantTurn.id });
    await settled(long.conversationId);
  });

  it('says the window filled, not the token limit, when an endless answer fills it, and keeps the answer', async () => {
    // No token limit is set: the answer runs until the 2,048-token window (its trained context; the request itself takes ~1,600) has no room left.
    const { turns } = await ask(services, 'brief.gguf', 'Count for me.');
    const answer = turns.find((t) => t.role === 'assistant')!;
    expect(answer).toMatchObject({ status: 'done', stop: 'context_full', wireReason: 'context_full' });
    expect(turnText(answer)).toMatch(/^Counting sheep slowly/);
    expect(answer.usage?.outputTokens).toBeGreaterThan(100);
  });

  it('hears a stop while it reads a long prompt, not only once the whole prompt is read', async () => {
    await services.handlers['builtin:unload']({ file: 'long.gguf' });
    // About 5,000 prompt tokens: seconds of reading on one thread.
    const sent = await services.handlers['chat:send']({ conversationId: null, text: 'abcdefghij'.repeat(500), model: 'long.gguf', connectionId: 'builtin' });
    // The service learns the model is loaded when the engine starts reading the prompt (its `start` event).
    await expect.poll(() => services.library.builtin.isLoaded('long.gguf'), { timeout: 60_000, interval: 5 }).toBe(true);
    await services.handlers['chat:stop']({ turnId: sent.assistantTurn.id });
    const stopped = (await settled(sent.conversationId)).find((t) => t.id === sent.assistantTurn.id)!;
    expect(stopped).toMatchObject({ status: 'aborted' });
    expect(turnText(stopped)).toBe('');
    // The same prompt again, one token of answer (an alias that adds nothing else): the cache holds what was read
    // before the stop, which is not the whole prompt.
    const one = await services.handlers['aliases:create']({ name: 'long-one', connectionId: 'builtin', model: 'long.gguf', systemPrompt: '', parameters: { num_predict: 1 }, thinkMode: 'off', contextWindow: null });
    const again = await services.handlers['chat:regenerate']({ turnId: sent.assistantTurn.id, model: `alias:${one.id}`, connectionId: 'builtin' });
    const answer = (await settled(again.conversationId)).find((t) => t.id === again.assistantTurn.id)!;
    expect(answer).toMatchObject({ status: 'done', stop: 'max_tokens' });
    const input = answer.usage?.inputTokens ?? 0;
    expect(input).toBeGreaterThan(4000);
    expect(answer.usage?.cachedTokens ?? 0).toBeLessThan(input - 1000);
  });

  it('says a model that is answering cannot be unloaded or deleted now, instead of waiting silently', async () => {
    const sent = await startLongAnswer();
    try {
      await expect(services.handlers['builtin:unload']({ file: 'long.gguf' })).rejects.toMatchObject({ name: 'UserFacingError', message: expect.stringMatching(/long\.gguf is answering now: stop that answer first/) });
      await expect(services.handlers['library:delete']({ file: 'long.gguf' })).rejects.toThrow(/is answering now/);
      expect(existsSync(join(dir, 'models', 'long.gguf'))).toBe(true);
    } finally {
      await services.handlers['chat:stop']({ turnId: sent.assistantTurn.id });
      await settled(sent.conversationId);
    }
    expect((await services.handlers['builtin:unload']({ file: 'long.gguf' })).loaded.map((l) => l.file)).not.toContain('long.gguf');
  });

  it('survives the engine process being killed mid-answer: a clear error, the partial kept, a fresh engine next time', async () => {
    const sent = await startLongAnswer();
    const pid = services.library.builtin.host?.pid;
    expect(pid).toBeTypeOf('number');
    process.kill(pid!, 'SIGKILL');
    const turns = await settled(sent.conversationId);
    const answer = turns.find((t) => t.id === sent.assistantTurn.id)!;
    expect(answer).toMatchObject({ status: 'error', stop: 'error' });
    // Named once: it read "Built-in (llama.cpp): The built-in engine stopped unexpectedly…".
    expect(answer.error).toMatch(/^The built-in engine stopped unexpectedly \(signal SIGKILL\).*What arrived is kept/);
    expect(turnText(answer)).toMatch(/^Counting sheep slowly/);
    // The app is still up, and the next message starts a new engine process.
    const next = await ask(services, 'plain.gguf', 'And now?');
    expect(next.turns.at(-1)).toMatchObject({ status: 'done', stop: 'end_turn' });
    expect(services.library.builtin.host?.pid).not.toBe(pid);
  });

  it('refuses a conversation that does not fit the window, counted exactly with the model tokenizer', async () => {
    // ~7,500 characters: the character estimate (~1,900 tokens) fits a 4,096 window, the real count does not
    // (the scripted vocabulary spells most text byte by byte).
    const text = 'Please read this carefully. '.repeat(270);
    const { turns } = await ask(services, 'plain.gguf', text);
    const card = turns.at(-1)!;
    expect(card).toMatchObject({ role: 'system', source: 'context-refused' });
    expect(card.meta['counted']).toBe('tokenizer');
    const tokens = card.meta['estimate'] as number;
    expect(tokens).toBeGreaterThan(card.meta['window'] as number);
    expect(Math.ceil(text.length / 4)).toBeLessThan(card.meta['window'] as number);
    // Nothing was sent: no failed answer; the card names what takes the room, the message's part counted against the
    // tokenizer's total (context audit #1, #4).
    expect(turns.find((t) => t.role === 'assistant')).toMatchObject({ status: 'error', meta: { refused: true } });
    const parts = card.meta['parts'] as { message?: number };
    expect(parts.message).toBeGreaterThan(0);
    expect(card.meta['ways']).toEqual(expect.any(Array));
    expect(turnText(card)).toContain('your message');
  });

  it('loads nothing that is known not to fit in memory, and says what would', async () => {
    // A model already loaded holds its memory (it fits by definition): start from nothing loaded.
    await services.handlers['builtin:unload']({ file: 'plain.gguf' });
    await services.handlers['gpu:set-override']({ bytes: 260 * 1024 * 1024 });
    try {
      const { turns } = await ask(services, 'plain.gguf', 'Hello?');
      const card = turns.at(-1)!;
      expect(card).toMatchObject({ role: 'system', source: 'model-does-not-fit' });
      expect(turnText(card)).toMatch(/does not fit in the 0\.\d GiB.*No useful window fits/);
      await expect(services.handlers['builtin:load']({ file: 'plain.gguf' })).rejects.toThrow(/does not fit/);
      const advice = await services.handlers['library:recommend-context']({ file: 'plain.gguf' });
      expect(advice.recommendation).toMatchObject({ fits: false });
      expect(advice.recommendation?.lines.map((l) => l.label)).toContain('− model weights');
    } finally {
      await services.handlers['gpu:set-override']({ bytes: null });
    }
    const advice = await services.handlers['library:recommend-context']({ file: 'plain.gguf' });
    expect(advice.recommendation).toMatchObject({ fits: true, contextTokens: 4096 });
  });

  it('a window beyond the trained context is refused when kept, and one kept before runs at the trained context (models audit #2)', async () => {
    // plain.gguf was trained for 4,096 tokens. Before, 8,192 was kept and loaded as it was (1,000,000 took 1.4 GB).
    await expect(Promise.resolve(services.handlers['library:set-context']({ file: 'plain.gguf', contextWindow: 8192 }))).rejects.toThrow(
      'plain.gguf was trained for a context of 4,096 tokens, so a 8,192-token window is more than it can use. Keep 4,096 or less.',
    );
    expect((await services.handlers['library:recommend-context']({ file: 'plain.gguf' })).stored).toBeNull();
    // Kept by an older build, before such windows were refused.
    new ModelSettingsStore(services.db).setWindow(BUILTIN_WINDOWS_KEY, 'plain.gguf', { contextWindow: 8192, source: 'user' });
    try {
      const { turns } = await ask(services, 'plain.gguf', 'Hello?');
      expect(turns.at(-1)).toMatchObject({ role: 'assistant', status: 'done', stop: 'end_turn' });
      expect((await services.handlers['builtin:status']({})).loaded.find((l) => l.file === 'plain.gguf')?.contextSize).toBe(4096);
    } finally {
      await services.handlers['library:set-context']({ file: 'plain.gguf', contextWindow: null });
    }
  });

  it('lets an idle model go when the one asked for needs its room, instead of refusing', async () => {
    for (const l of (await services.handlers['builtin:status']({})).loaded) await services.handlers['builtin:unload']({ file: l.file });
    // Room for one of these small models (their weights, the CPU runtime, a cache), not for two.
    await services.handlers['gpu:set-override']({ bytes: 300 * 1024 * 1024 });
    try {
      expect((await services.handlers['builtin:load']({ file: 'long.gguf' })).loaded.map((l) => l.file)).toEqual(['long.gguf']);
      const { turns } = await ask(services, 'plain.gguf', 'Hello?');
      expect(turns.at(-1)).toMatchObject({ role: 'assistant', status: 'done', stop: 'end_turn' });
      expect((await services.handlers['builtin:status']({})).loaded.map((l) => l.file)).toEqual(['plain.gguf']);
    } finally {
      await services.handlers['gpu:set-override']({ bytes: null });
    }
  });
});
