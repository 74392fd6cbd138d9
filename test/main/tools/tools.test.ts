import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventChannel } from '../../../src/shared/ipc';
import { turnText, type ToolResultBlock, type Turn } from '../../../src/shared/turn';
import { createServices, type Services } from '../../../src/main/services';
import { currentDatetimeTool } from '../../../src/main/tools/current-datetime';
import { createFetchUrlTool, refuseUrl } from '../../../src/main/tools/fetch-url';
import { htmlToText } from '../../../src/main/tools/html-text';
import { readDocumentTool } from '../../../src/main/tools/read-document';
import type { ToolContext } from '../../../src/main/tools/types';
import { startReplayServer, type ReplayServer } from '../../replay-server/replay-server';
import { ollamaChatStream } from '../../replay-server/ollama-wire';
import { script } from '../engine/helpers';

let replay: ReplayServer | undefined;
let services: Services | undefined;
let dir: string | undefined;
afterEach(async () => {
  services?.close();
  await replay?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  services = undefined;
  replay = undefined;
  dir = undefined;
});

const ctx = (over: Partial<ToolContext> = {}): ToolContext => ({
  conversationId: 'c',
  history: [],
  signal: new AbortController().signal,
  readBlob: () => undefined,
  now: () => Date.UTC(2026, 10, 30, 8, 0, 0),
  ...over,
});

/** One Ollama line carrying a whole tool call, then `done` (the shape of test/fixtures/ollama/tool-call-stop). */
function ollamaCall(name: string, args: object): string {
  const call = { model: 'm', created_at: '2026-11-30T08:00:00Z', message: { role: 'assistant', content: '', tool_calls: [{ function: { name, arguments: args } }] }, done: false };
  const done = { model: 'm', created_at: '2026-11-30T08:00:00Z', message: { role: 'assistant', content: '' }, done_reason: 'stop', done: true, prompt_eval_count: 50 };
  return `${JSON.stringify(call)}\n${JSON.stringify(done)}\n`;
}

describe('fetch_url', () => {
  it('refuses what is not http(s), credentials in URLs and addresses that are not public (issue 15: LAN and loopback too)', () => {
    expect(refuseUrl('file:///etc/passwd')).toContain('Only http and https');
    expect(refuseUrl('ftp://x.org/a')).toContain('Only http and https');
    expect(refuseUrl('http://user:pw@example.org/')).toContain('credentials');
    expect(refuseUrl('http://169.254.169.254/latest/meta-data')).toContain('link-local');
    expect(refuseUrl('http://[fe80::1]/')).toContain('link-local');
    expect(refuseUrl('not a url')).toContain('not a URL');
    expect(refuseUrl('http://192.168.1.20:8080/status')).toContain('private network');
    expect(refuseUrl('https://example.org/')).toBeUndefined();
  });

  it('reads a page as text and never follows a redirect to file:', async () => {
    replay = await startReplayServer([
      { path: '/page', headers: { 'content-type': 'text/html' }, body: '<html><head><title>Sky</title><script>evil()</script></head><body><h1>Why blue</h1><p>Rayleigh &amp; co.</p></body></html>' },
      { path: '/hop', status: 302, headers: { location: '/page' }, body: '' },
      { path: '/escape', status: 302, headers: { location: 'file:///etc/passwd' }, body: '' },
    ]);
    // The test server stands in for a public site: 127.0.0.1 is let through for this tool only.
    const fetchUrlTool = createFetchUrlTool({ allowAddress: (v) => v.refusal === undefined || v.address === '127.0.0.1' });
    const page = await fetchUrlTool.run({ url: `${replay.url}/hop` }, ctx());
    expect(page.isError).toBe(false);
    expect(page.content).toContain('Why blue');
    expect(page.content).toContain('Rayleigh & co.');
    expect(page.content).not.toContain('evil');
    const escape = await fetchUrlTool.run({ url: `${replay.url}/escape` }, ctx());
    expect(escape).toMatchObject({ isError: true });
    expect(escape.content).toContain('Only http and https');
  });

  it('waits for the user in the loop: a tool-approval card, then deny -> an error result the model reads', async () => {
    dir = mkdtempSync(join(tmpdir(), 'firebrand-tools-'));
    replay = await startReplayServer();
    services = createServices({ dataDir: dir, ollamaUrl: replay.url, log: () => {}, chat: { titles: false } });
    const events: { channel: EventChannel; payload: unknown }[] = [];
    services.hub.connect((channel, payload) => events.push({ channel, payload }));
    const probes = [{ method: 'POST', path: '/api/show', body: '{"capabilities":["completion","tools"]}' }];
    script(replay, join(dir, 'firebrand.db'), probes, '/api/chat', [
      { body: ollamaCall('fetch_url', { url: `${replay.url}/secret` }) },
      { body: ollamaChatStream(['I could not fetch it.'], 'm') },
    ]);
    const sent = await services.handlers['chat:send']({ conversationId: null, text: 'Read it', model: 'm' });
    let card: Turn | undefined;
    await expect.poll(() => {
      card = events.map((e) => (e.payload as { turn?: Turn }).turn).find((t) => t?.source === 'tool-approval');
      return card?.meta['state'];
    }).toBe('pending');
    const toolCallId = String(card?.meta['toolCallId']);
    const turnId = String(card?.meta['turnId']);
    expect(await services.handlers['chat:approve-tool']({ conversationId: sent.conversationId, turnId, toolCallId, decision: 'deny' })).toEqual({ applied: true });
    await expect.poll(() => services!.chat.activeCount).toBe(0);
    const turns = (await services.handlers['conversations:open']({ conversationId: sent.conversationId })).turns;
    expect(turns.map((t) => t.source ?? t.role)).toEqual(['user', 'assistant', 'tool-approval', 'tool', 'assistant']);
    expect(turns[2]?.meta).toMatchObject({ state: 'denied', decision: 'deny' });
    // The card's text follows its meta (issue 16): no stale "wants to run" after the decision.
    expect(turnText(turns[2] as Turn)).toMatch(/^fetch_url was not allowed to run: /);
    expect(turns[3]?.blocks[0]).toMatchObject({ isError: true });
    expect((turns[3]?.blocks[0] as ToolResultBlock).content).toContain('did not allow');
    expect(turnText(turns[4] as Turn)).toBe('I could not fetch it.');
    expect(replay.requests.some((r) => r.path === '/secret')).toBe(false);
    // The card is the user's, not the model's: it never reaches the wire.
    const second = replay.requests.filter((r) => r.path === '/api/chat')[1]?.body ?? '';
    expect(second).not.toContain('wants to run');
  });
});

describe('the other built-ins', () => {
  it('current_datetime answers in UTC and the asked zone, and refuses an unknown zone', async () => {
    const out = await currentDatetimeTool.run({ timezone: 'Europe/Paris' }, ctx());
    expect(out.content).toContain('2026-11-30T08:00:00.000Z');
    expect(out.content).toContain('09:00:00');
    expect((await currentDatetimeTool.run({ timezone: 'Mars/Olympus' }, ctx())).isError).toBe(true);
  });

  it('read_document returns a line range of an attached text file', async () => {
    const bytes = new TextEncoder().encode('one\ntwo\nthree\nfour\n');
    const history: Turn[] = [
      { id: 'u', conversationId: 'c', parentId: null, role: 'user', meta: {}, status: 'done', createdAt: 0, blocks: [{ type: 'attachment', id: 'd'.repeat(64), kind: 'text', name: 'notes.txt', mime: 'text/plain', size: bytes.length }] },
    ];
    const out = await readDocumentTool.run({ name: 'notes.txt', start_line: 2, end_line: 3 }, ctx({ history, readBlob: () => bytes }));
    expect(out).toEqual({ content: '[notes.txt: lines 2-3 of 5]\ntwo\nthree', isError: false });
    const missing = await readDocumentTool.run({ name: 'other.txt' }, ctx({ history, readBlob: () => bytes }));
    expect(missing.isError).toBe(true);
    expect(missing.content).toContain('Attached: notes.txt');
  });

  it('read_document reads a PDF by its extracted text (pages marked), never its bytes', async () => {
    const pdf = { type: 'attachment', id: 'e'.repeat(64), kind: 'document', name: 'r.pdf', mime: 'application/pdf', size: 9 } as const;
    const history: Turn[] = [{ id: 'u', conversationId: 'c', parentId: null, role: 'user', meta: {}, status: 'done', createdAt: 0, blocks: [pdf] }];
    const bytes = new TextEncoder().encode('%PDF-1.7 compressed');
    const out = await readDocumentTool.run({ name: 'r.pdf', start_line: 3, end_line: 5 }, ctx({ history, readBlob: () => bytes, documentText: () => '[page 1]\nAlpha\n\n[page 2]\nBeta' }));
    expect(out).toEqual({ content: '[r.pdf: lines 3-5 of 5]\n\n[page 2]\nBeta', isError: false });
    const unread = await readDocumentTool.run({ name: 'r.pdf' }, ctx({ history, readBlob: () => bytes }));
    expect(unread).toEqual({ content: 'The text of r.pdf could not be read.', isError: true });
  });

  it('htmlToText keeps headings and paragraphs apart and decodes entities', () => {
    expect(htmlToText('<p>a&nbsp;b</p><ul><li>x</li><li>y</li></ul><style>p{}</style>&#x263A;')).toBe('a b\n\n- x\n\n- y\n\n☺');
  });
});
