/**
 * Documents and images from the composer to the wire, through the real services against an Ollama replay
 * (issue 18): the chip's count is the text that is sent, a document that does not fit is refused until the
 * user picks pages, text is read once, photos are scaled (the original stays), llama-server counts exactly.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { attachmentText, pagesThatFit, textTokens } from '../../../src/shared/attachment-text';
import { DEFAULT_CONTEXT_WINDOW } from '../../../src/shared/context-estimate';
import { BlobStore } from '../../../src/main/blobs/blob-store';
import { Sidecars } from '../../../src/main/blobs/sidecars';
import { openDatabase } from '../../../src/main/db/open-database';
import { StepStore } from '../../../src/main/db/step-store';
import { AttachmentContent } from '../../../src/main/documents/attachment-content';
import { ExtractionRunner } from '../../../src/main/documents/extraction-runner';
import { startReplayServer, type ReplayServer } from '../../replay-server/replay-server';
import { chatBodies, ollama, settle, tempServices } from '../integration/helpers';
import { makeDocuments, PAGE_TEXT, printPdf, type TestDocuments } from './make-documents';

const MODEL = 'llama3.2:3b';
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const sidecar = (dir: string, digest: string, suffix: string) => join(dir, 'blobs', digest.slice(0, 2), digest.slice(2, 4), `${digest}.${suffix}`);

let replay: ReplayServer;
let docs: TestDocuments;
let cleanup: (() => void) | undefined;
beforeAll(async () => {
  [replay, docs] = await Promise.all([startReplayServer(ollama()), makeDocuments()]);
}, 60_000);
afterAll(() => replay.close());
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
  replay.requests.length = 0;
});

function services() {
  const t = tempServices(replay);
  cleanup = t.cleanup;
  return t;
}

describe('attachments, composer to wire', () => {
  it("sends a PDF's text with page markers, and the chip counted exactly that text", async () => {
    const { services: s, dir } = services();
    const h = s.handlers;
    const block = await h['attachments:add']({ name: 'report.pdf', mime: 'application/pdf', dataBase64: b64(docs.multiPage) });
    const chip = await h['attachments:inspect']({ block, model: MODEL });
    const expected = attachmentText('report.pdf', { format: 'pdf', pages: PAGE_TEXT });
    expect(chip).toMatchObject({ tokens: textTokens(expected.length), tokensSource: 'estimate', pageCount: 3, error: null, pages: null });
    // Extracted once, kept beside the original.
    expect(existsSync(sidecar(dir, block.id, 'text-v2-pdf.json'))).toBe(true);
    expect((await h['attachments:preview']({ block })).text).toBe(expected);

    const sent = await h['chat:send']({ conversationId: null, text: 'Summarize', model: MODEL, attachments: [block] });
    await settle(s, sent.conversationId);
    const content = chatBodies(replay)[0]?.messages.at(-1)?.content ?? '';
    expect(content).toBe(`Summarize\n\n${expected}`);
    expect(content).toContain('[page 2]\nRevenue grew by 12 percent');
  });

  it('refuses a PDF that does not fit the window, then sends the pages the user chose, and only those', async () => {
    const pages = Array.from({ length: 30 }, (_, i) => `Page ${i + 1}: ${'The committee reviewed the figures in detail. '.repeat(14)}`);
    const long = await printPdf(pages);
    const { services: s } = services();
    const h = s.handlers;
    const block = await h['attachments:add']({ name: 'minutes.pdf', mime: 'application/pdf', dataBase64: b64(long) });
    const chip = await h['attachments:inspect']({ block, model: MODEL });
    expect(chip.pageCount).toBe(30);
    expect(chip.tokens).toBeGreaterThan(DEFAULT_CONTEXT_WINDOW);

    const refused = await h['chat:send']({ conversationId: null, text: 'Summarize', model: MODEL, attachments: [block] });
    const turns = await settle(s, refused.conversationId);
    expect(turns.at(-1)?.source).toBe('context-refused');
    expect(chatBodies(replay)).toEqual([]);

    const fit = pagesThatFit('minutes.pdf', chip.pageChars ?? [], DEFAULT_CONTEXT_WINDOW - 100);
    expect(fit).not.toBeNull();
    const chosen = { ...block, pages: fit ?? { from: 1, to: 1 } };
    const narrowed = await h['attachments:inspect']({ block: chosen, model: MODEL });
    expect(narrowed.pages).toEqual(fit);
    expect(narrowed.tokens).toBeLessThan(DEFAULT_CONTEXT_WINDOW - 100);
    const sent = await h['chat:send']({ conversationId: null, text: 'Summarize', model: MODEL, attachments: [chosen] });
    await settle(s, sent.conversationId);
    const content = chatBodies(replay)[0]?.messages.at(-1)?.content ?? '';
    const last = fit?.to ?? 0;
    expect(content).toContain(`pages="1-${last} of 30"`);
    expect(content).toContain(`[page ${last}]\nPage ${last}:`);
    expect(content).not.toContain(`[page ${last + 1}]`);
    expect(textTokens(content.slice(content.indexOf('<file')).length)).toBe(narrowed.tokens);
  });

  it('says why a password-protected PDF cannot be read, on the chip and (if sent anyway) to the model', async () => {
    const { services: s } = services();
    const h = s.handlers;
    const block = await h['attachments:add']({ name: 'locked.pdf', mime: 'application/pdf', dataBase64: b64(docs.passwordProtected) });
    const chip = await h['attachments:inspect']({ block, model: MODEL });
    expect(chip.error).toContain('password-protected');
    expect(chip.tokens).toBe(0);
    const sent = await h['chat:send']({ conversationId: null, text: 'What is this?', model: MODEL, attachments: [block] });
    await settle(s, sent.conversationId);
    const content = chatBodies(replay)[0]?.messages.at(-1)?.content ?? '';
    expect(content).toContain('[This file is not available: “locked.pdf” is password-protected');
    expect(content).not.toContain('%PDF');
  });

  it('scales a large photo down, turned upright by its EXIF orientation, while the original stays in the store', async () => {
    // 3000×2000 pixels stored sideways: orientation 6 means "turn 90° clockwise to view", so upright it is 2000×3000.
    const photo = await sharp({ create: { width: 3000, height: 2000, channels: 3, background: '#3a6' } }).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const { services: s, dir } = services();
    const h = s.handlers;
    const block = await h['attachments:add']({ name: 'photo.jpg', mime: 'image/jpeg', dataBase64: b64(photo) });
    const chip = await h['attachments:inspect']({ block, model: MODEL });
    expect(chip.image).toEqual({ width: 1045, height: 1568, scaled: true });
    const sent = await h['chat:send']({ conversationId: null, text: 'What is this?', model: MODEL, attachments: [block] });
    await settle(s, sent.conversationId);
    const body = chatBodies(replay)[0] as unknown as { messages: { images?: string[] }[] };
    const image = Buffer.from(body.messages.at(-1)?.images?.[0] ?? '', 'base64');
    const meta = await sharp(image).metadata();
    expect([meta.width, meta.height, meta.orientation ?? 1]).toEqual([1045, 1568, 1]);
    expect((await h['attachments:get']({ id: block.id })).dataBase64).toBe(b64(photo));
    // The request record keeps the scaled copy by reference, and rebuilds the exact body sent.
    const ref = s.db.prepare('SELECT blob_digest FROM request_body_blobs').all() as { blob_digest: string }[];
    expect(ref.map((r) => r.blob_digest)).not.toContain(block.id);
    expect(ref).toHaveLength(1);
    const steps = new StepStore(s.db, (d) => readFileSync(join(dir, 'blobs', d.slice(0, 2), d.slice(2, 4), d)));
    const digest = (s.db.prepare('SELECT request_digest FROM steps').get() as { request_digest: string }).request_digest;
    expect(steps.rehydrateBody(digest)?.toString('utf8')).toBe(replay.requests.find((r) => r.path === '/api/chat')?.body);
  });

  it.each([
    ['after 60 bytes (the header cut)', 60],
    ['after 120 bytes (the header whole, the pixels not)', 120],
  ])('says a PNG cut %s cannot be read, and sends the model a note instead of its bytes (attachments audit #8)', async (_how, length) => {
    const png = await sharp({ create: { width: 200, height: 100, channels: 3, background: '#3a6' } }).png().toBuffer();
    const { services: s } = services();
    const h = s.handlers;
    const block = await h['attachments:add']({ name: 'truncated.png', mime: 'image/png', dataBase64: b64(png.subarray(0, length)) });
    const chip = await h['attachments:inspect']({ block, model: MODEL });
    expect(chip.error).toMatch(/^“truncated\.png” cannot be read: its image data is damaged or incomplete/);
    expect(chip.tokens).toBe(0);
    const sent = await h['chat:send']({ conversationId: null, text: 'What is this?', model: MODEL, attachments: [block] });
    await settle(s, sent.conversationId);
    const last = (chatBodies(replay)[0] as unknown as { messages: { content: string; images?: string[] }[] }).messages.at(-1);
    expect(last?.images ?? []).toEqual([]);
    expect(last?.content).toContain('[This file is not available: its image data is damaged or incomplete');
  });

  it('reads each document once: later inspections, sends and a restart use the kept text', async () => {
    const dir = resolve(services().dir, 'direct');
    mkdirSync(dir);
    const db = openDatabase(join(dir, 'db.sqlite'));
    try {
      const blobs = new BlobStore(db, dir);
      const sidecars = new Sidecars((d) => blobs.pathOf(d));
      const block = await blobs.put(docs.multiPage, { name: 'r.pdf', mime: 'application/pdf' }, 1);
      const runner = new ExtractionRunner();
      const run = vi.spyOn(runner, 'run');
      const first = new AttachmentContent({ blobs, sidecars, runner, now: () => 1, log: () => {} });
      await first.inspect(block, { anthropic: false });
      await first.prepare([block]);
      await first.inspect({ ...block, pages: { from: 2, to: 2 } }, { anthropic: false });
      const restarted = new AttachmentContent({ blobs, sidecars, runner, now: () => 1, log: () => {} });
      expect(restarted.materialize(block)).toEqual({ kind: 'text', text: attachmentText('r.pdf', { format: 'pdf', pages: PAGE_TEXT }) });
      expect(run).toHaveBeenCalledTimes(1);
      await runner.close();
    } finally {
      db.close();
    }
  });

  describe('the same bytes under two names (attachments audit #3)', () => {
    const PAGE = '<html><head><title>T</title></head><body><h1>Heading</h1><p>HTML body with FALCON.</p><script>let x = 1 +;</script></body></html>';
    const asHtml = { name: 'page.html', mime: 'text/html', dataBase64: b64(new TextEncoder().encode(PAGE)) };
    const asText = { name: 'page-source.txt', mime: 'text/plain', dataBase64: b64(new TextEncoder().encode(PAGE)) };

    it.each([
      ['the .html first', [asHtml, asText]],
      ['the .txt first', [asText, asHtml]],
    ])('reads each as its own type, %s: the markup for the .txt, the stripped text for the .html', async (_order, files) => {
      const { services: s } = services();
      const h = s.handlers;
      const blocks = [];
      for (const f of files) {
        const block = await h['attachments:add'](f);
        // The chip's preview, before anything is sent.
        const preview = (await h['attachments:preview']({ block })).text;
        if (f.name === 'page.html') expect(preview).not.toContain('<script>');
        else expect(preview).toContain('<script>let x = 1 +;</script>');
        blocks.push(block);
      }
      const text = blocks.find((b) => b.name === 'page-source.txt');
      const sent = await h['chat:send']({ conversationId: null, text: 'What is wrong with the script?', model: MODEL, attachments: text ? [text] : [] });
      await settle(s, sent.conversationId);
      const content = chatBodies(replay)[0]?.messages.at(-1)?.content ?? '';
      expect(content).toContain(`<file name="page-source.txt"`);
      expect(content).toContain('<script>let x = 1 +;</script>');
    });

    it('keeps each block its own type through a JSON export and import', async () => {
      const { services: s } = services();
      const h = s.handlers;
      const html = await h['attachments:add'](asHtml);
      const text = await h['attachments:add'](asText);
      const first = await h['chat:send']({ conversationId: null, text: 'Two views', model: MODEL, attachments: [html, text] });
      await settle(s, first.conversationId);
      const file = await h['conversations:export']({ conversationId: first.conversationId, format: 'json' });
      const { conversationId } = await h['conversations:import']({ text: file.text });
      replay.requests.length = 0;
      const next = await h['chat:send']({ conversationId, text: 'Again', model: MODEL });
      await settle(s, next.conversationId);
      const history = chatBodies(replay)[0]?.messages.map((m) => m.content).join('\n') ?? '';
      const htmlPart = history.slice(history.indexOf('<file name="page.html"'), history.indexOf('<file name="page-source.txt"'));
      const textPart = history.slice(history.indexOf('<file name="page-source.txt"'));
      expect(htmlPart).toContain('FALCON');
      expect(htmlPart).not.toContain('<script>');
      expect(textPart).toContain('<script>let x = 1 +;</script>');
    });
  });

  it('words an unreadable file with its own name, though the same bytes failed under another (attachments audit #4)', async () => {
    const { services: s } = services();
    const h = s.handlers;
    const first = await h['attachments:add']({ name: 'bank-statement.pdf', mime: 'application/pdf', dataBase64: b64(docs.passwordProtected) });
    expect((await h['attachments:inspect']({ block: first, model: MODEL })).error).toContain('“bank-statement.pdf” is password-protected');
    const later = await h['attachments:add']({ name: 'contract-final.pdf', mime: 'application/pdf', dataBase64: b64(docs.passwordProtected) });
    const chip = await h['attachments:inspect']({ block: later, model: MODEL });
    expect(chip.error).toContain('“contract-final.pdf” is password-protected');
    expect(chip.error).not.toContain('bank-statement');
    const sent = await h['chat:send']({ conversationId: null, text: 'What is this?', model: MODEL, attachments: [later] });
    await settle(s, sent.conversationId);
    const content = chatBodies(replay)[0]?.messages.at(-1)?.content ?? '';
    expect(content).toContain('“contract-final.pdf” is password-protected');
    expect(content).not.toContain('bank-statement');
  });

  it('words a failure kept on disk with the name of the file asking, after a restart (attachments audit #4)', async () => {
    const dir = resolve(services().dir, 'direct');
    mkdirSync(dir);
    const db = openDatabase(join(dir, 'db.sqlite'));
    const runner = new ExtractionRunner();
    try {
      const blobs = new BlobStore(db, dir);
      const sidecars = new Sidecars((d) => blobs.pathOf(d));
      const before = new AttachmentContent({ blobs, sidecars, runner, now: () => 1, log: () => {} });
      const first = await blobs.put(docs.passwordProtected, { name: 'bank-statement.pdf', mime: 'application/pdf' }, 1);
      expect((await before.inspect(first, { anthropic: false })).error).toContain('bank-statement.pdf');
      const restarted = new AttachmentContent({ blobs, sidecars, runner, now: () => 1, log: () => {} });
      const run = vi.spyOn(runner, 'run');
      const later = await blobs.put(docs.passwordProtected, { name: 'contract-final.pdf', mime: 'application/pdf' }, 2);
      const error = (await restarted.inspect(later, { anthropic: false })).error ?? '';
      expect(run).not.toHaveBeenCalled();
      expect(error).toContain('“contract-final.pdf” is password-protected');
      expect(error).not.toContain('bank-statement');
    } finally {
      await runner.close();
      db.close();
    }
  });

  it("counts exactly with llama-server's /tokenize where the connection is a llama-server", async () => {
    const tokenize = readFileSync(resolve(import.meta.dirname, '../../../../shared/conformance/llama-server/tokenize-deepseek.json'));
    const llama = await startReplayServer([{ method: 'POST', path: '/tokenize', body: tokenize, headers: { 'content-type': 'application/json' } }]);
    try {
      const { services: s } = services();
      const h = s.handlers;
      const conn = await h['connections:save']({ kind: 'llama-server', label: 'llama', baseUrl: llama.url });
      const block = await h['attachments:add']({ name: 'notes.md', mime: 'text/markdown', dataBase64: b64(new TextEncoder().encode('# Notes\nHello Paris')) });
      const chip = await h['attachments:inspect']({ block, model: 'any', connectionId: conn.id });
      // The capture's answer holds 20 token ids.
      expect(chip).toMatchObject({ tokens: 20, tokensSource: 'exact' });
      const asked = JSON.parse(llama.requests[0]?.body ?? '{}') as { content?: string };
      expect(asked.content).toBe(attachmentText('notes.md', { format: 'text', text: '# Notes\nHello Paris' }));
      // Ollama cannot count: the estimate, labelled so.
      expect(await h['attachments:inspect']({ block, model: MODEL })).toMatchObject({ tokensSource: 'estimate' });
    } finally {
      await llama.close();
    }
  });
});
