/**
 * Each reasoning panel's "Thought for N s" is its own run's, over a real stream. Before, main kept the figures of the
 * runs with text only, and the page gave them to the panels by place: an Anthropic answer that began with a
 * `redacted_thinking` block (nothing readable, no figure) showed the thinking after it's figure on the redacted panel,
 * and "Thoughts" on the thinking. The panels here are the page's own (ThinkingBlock, with the figure AssistantTurn
 * gives each), drawn from the answer as the page folds main's parts while it streams, as a page opened mid-answer
 * reads it, and as saved.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ThinkingBlock } from '../../../src/renderer/components/turn/ThinkingBlock';
import { applyParts } from '../../../src/shared/reducer';
import type { Turn } from '../../../src/shared/turn';
import { reasoningPanelMs } from '../../../src/shared/turn-timing';
import { splitChunks } from '../../replay-server/replay-server';
import { servicesOnReplay } from './services-on-replay';

const event = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
const thinking = ['The user wants ', 'a short answer, ', 'so I keep it short.'];
/** Anthropic's documented order where part of the thinking was redacted: the redacted block, then readable thinking. */
const BODY = [
  event('message_start', { message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude', content: [], stop_reason: null, usage: { input_tokens: 40, output_tokens: 1 } } }),
  event('content_block_start', { index: 0, content_block: { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' } }),
  event('content_block_stop', { index: 0 }),
  event('content_block_start', { index: 1, content_block: { type: 'thinking', thinking: '' } }),
  ...thinking.map((t) => event('content_block_delta', { index: 1, delta: { type: 'thinking_delta', thinking: t } })),
  event('content_block_delta', { index: 1, delta: { type: 'signature_delta', signature: 'EqQBCgIYAhIM' } }),
  event('content_block_stop', { index: 1 }),
  event('content_block_start', { index: 2, content_block: { type: 'text', text: '' } }),
  event('content_block_delta', { index: 2, delta: { type: 'text_delta', text: 'Done' } }),
  event('content_block_delta', { index: 2, delta: { type: 'text_delta', text: ', briefly.' } }),
  event('content_block_stop', { index: 2 }),
  event('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 30 } }),
  event('message_stop', {}),
].join('');

const app = servicesOnReplay('firebrand-panel-timing-');

/** What each reasoning panel of the answer says, as the page draws it. */
const panels = (turn: Turn): string[] =>
  reasoningPanelMs(turn).map((ms, ordinal) => {
    const html = renderToStaticMarkup(<ThinkingBlock turnId={turn.id} text="" ordinal={ordinal} active={false} savedMs={ms} />);
    return /<summary[^>]*>([^<]*)<\/summary>/.exec(html)?.[1] ?? '';
  });

describe('"Thought for N s" after a redacted thinking block', () => {
  it('is on the thinking it measured, not on the redacted block: live, mid-answer, saved', async () => {
    const services = app.start();
    const replay = app.replay;
    const { id: connectionId } = await services.handlers['connections:save']({ kind: 'anthropic', label: 'Claude', baseUrl: replay.url, apiKey: 'sk-test' });
    const chunks = splitChunks(Buffer.from(BODY, 'utf8'), 'lines');
    // Held after the answer's first words, at the blank line that ends their event.
    const hold = chunks.findIndex((chunk) => chunk.toString('utf8').includes('"text":"Done"')) + 2;
    expect(hold).toBeGreaterThan(1);
    replay.setRoutes([{ method: 'POST', path: '/v1/messages', body: BODY, chunk: 'lines', delayMs: 2, holdAfterChunks: hold }]);

    const sent = await services.handlers['chat:send']({ conversationId: null, text: 'Briefly?', model: 'claude', connectionId });
    await expect.poll(() => replay.held).toBe(1);
    const live = () => applyParts(sent.assistantTurn, app.parts());
    await expect.poll(() => live().blocks.some((b) => b.type === 'text')).toBe(true);
    // The page, as the answer streams: the redacted block has no figure; the thinking has its own.
    await expect.poll(() => panels(live())).toEqual(['Thoughts', expect.stringMatching(/^Thought for (under a second|\d+ s)$/)]);
    const figure = panels(live())[1];

    // A page opened now (a reload, another tab).
    const mid = await app.openTurn(sent.conversationId, sent.assistantTurn.id);
    expect(mid.status).toBe('streaming');
    expect(panels(mid)).toEqual(['Thoughts', figure]);

    replay.release();
    await expect.poll(() => services.chat.activeCount).toBe(0);
    const saved = await app.openTurn(sent.conversationId, sent.assistantTurn.id);
    expect(saved.status).toBe('done');
    expect(saved.blocks.map((b) => b.type)).toEqual(['reasoning', 'reasoning', 'text']);
    expect(panels(saved)).toEqual(['Thoughts', figure]);
    expect(panels(live())).toEqual(['Thoughts', figure]);
  });
});
