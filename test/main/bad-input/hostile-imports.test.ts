/**
 * Issue 15 items 7, 14 and 15: imports get exactly the checks uploads get; an import is validated as strictly as
 * an IPC payload; a failed import leaves no file behind, and GC sweeps files that have no row.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collect } from '../../../src/main/blobs/blob-gc';
import { BlobStore } from '../../../src/main/blobs/blob-store';
import { createServices, type Services } from '../../../src/main/services';
import { PNG } from '../blobs/fixtures';

let dir: string;
let services: Services;
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(document.domain)"><script>fetch("//evil")</script></svg>');

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'firebrand-hostile-import-'));
  services = createServices({ dataDir: dir, log: () => {} });
});
afterEach(() => {
  services.close();
  rmSync(dir, { recursive: true, force: true });
});

const digestOf = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** An export file with one user turn carrying `blocks`, and `blobs` as given. */
function exportFile(blocks: unknown[], blobs: Record<string, { mime: string; bytes: Uint8Array }> = {}, turnExtra: Record<string, unknown> = {}): string {
  const turn = { id: 'u1', conversationId: 'c1', parentId: null, role: 'user', blocks, meta: {}, status: 'done', createdAt: 1, ...turnExtra };
  return JSON.stringify({
    format: 'firebrand.conversation',
    version: 1,
    exportedAt: 1,
    conversation: { id: 'c1', title: 'Imported', model: null, activeLeafId: 'u1', createdAt: 1, updatedAt: 1 },
    turns: [turn],
    blobs: Object.fromEntries(Object.entries(blobs).map(([d, b]) => [d, { mime: b.mime, size: b.bytes.length, base64: Buffer.from(b.bytes).toString('base64') }])),
  });
}

function attachment(bytes: Uint8Array, mime: string, kind: string, name = 'chart.png') {
  return { type: 'attachment', id: digestOf(bytes), kind, name, mime, size: bytes.length };
}

async function importText(text: string) {
  return services.dispatcher.dispatch('conversations:import', { text });
}

function blobFiles(): string[] {
  const root = join(dir, 'blobs');
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else out.push(e.name);
    }
  };
  try {
    walk(root);
  } catch {
    // No blobs folder yet.
  }
  return out.sort();
}

describe('an import gets exactly the checks an upload gets (item 7)', () => {
  const cases: [string, () => string, RegExp][] = [
    ['an "image" that is an SVG with a script', () => exportFile([attachment(SVG, 'image/svg+xml', 'image', 'cat.svg')], { [digestOf(SVG)]: { mime: 'image/svg+xml', bytes: SVG } }), /image\/svg\+xml images are not supported/],
    ['SVG bytes claiming to be a PNG', () => exportFile([attachment(SVG, 'image/png', 'image')], { [digestOf(SVG)]: { mime: 'image/png', bytes: SVG } }), /its content is not a PNG file/],
    ['SVG bytes stored as text, shown as an image', () => exportFile([attachment(SVG, 'image/png', 'image')], { [digestOf(SVG)]: { mime: 'text/plain', bytes: SVG } }), /does not match its bytes/],
    ['a type that is not a media type', () => exportFile([attachment(PNG, 'image/png;x=<b>', 'image')], { [digestOf(PNG)]: { mime: 'image/png;x=<b>', bytes: PNG } }), /not a valid media type/],
    ['an attachment over the size limit', () => {
      const big = Buffer.concat([Buffer.from(PNG), Buffer.alloc(20 * 1024 * 1024)]);
      return exportFile([attachment(big, 'image/png', 'image')], { [digestOf(big)]: { mime: 'image/png', bytes: big } });
    }, /an attachment can be at most 20,971,520 bytes/],
    ['an empty attachment', () => exportFile([attachment(new Uint8Array(), 'text/plain', 'text', 'empty.txt')], { [digestOf(new Uint8Array())]: { mime: 'text/plain', bytes: new Uint8Array() } }), /is empty/],
  ];
  for (const [what, file, message] of cases) {
    it(`refuses ${what}, and writes nothing`, async () => {
      const result = await importText(file());
      expect(result.ok, what).toBe(false);
      if (!result.ok) expect(result.error.message, what).toMatch(message);
      expect(await services.handlers['conversations:list']({})).toEqual([]);
      expect(blobFiles(), what).toEqual([]);
    });
  }

  // An export whose attachment was relabelled text/plain, its bytes a binary file's, was imported as text and the
  // model read garbage: attaching the same bytes as text is refused. The refusal names the attachment not taken.
  const BINARY = Buffer.from([0x53, 0x51, 0x4c, 0x00, 0x00, 0x00, 0x01, 0x10, 0x00, 0x7f, 0x00, 0x00, 0x20, 0x00, 0x00, 0x02]);
  const relabelled: [string, string][] = [
    ['labelled text/plain, stored as text/plain', 'text/plain'],
    ['labelled text/plain, stored as a type of no known kind', 'application/octet-stream'],
  ];
  for (const [what, stored] of relabelled) {
    it(`refuses binary bytes ${what}, naming the file not taken, and writes nothing`, async () => {
      const file = exportFile([attachment(BINARY, 'text/plain', 'text', 'data.txt')], { [digestOf(BINARY)]: { mime: stored, bytes: BINARY } });
      const result = await importText(file);
      expect(result).toEqual({
        ok: false,
        error: {
          code: 'invalid-payload',
          message: 'This file cannot be imported: one of its attachments is refused. “data.txt” cannot be attached: it holds binary data, not text. Nothing was imported.',
        },
      });
      expect(await services.handlers['conversations:list']({})).toEqual([]);
      expect(blobFiles()).toEqual([]);
    });
  }

  it('imports a real PNG, names cleaned like an upload; the renderer is only ever given the sniffed type', async () => {
    const result = await importText(exportFile([attachment(PNG, 'image/png', 'image', 'evil\u202egnp.exe')], { [digestOf(PNG)]: { mime: 'image/png', bytes: PNG } }));
    expect(result.ok).toBe(true);
    const view = await services.handlers['conversations:open']({ conversationId: 'c1' });
    expect(view.turns[0]?.blocks[0]).toMatchObject({ type: 'attachment', name: 'evil_gnp.exe' });
    expect(await services.handlers['attachments:get']({ id: digestOf(PNG) })).toMatchObject({ mime: 'image/png' });
    // Bytes a text upload accepted (SVG is UTF-8 text) are never handed back as anything a browser would render.
    const text = await services.handlers['attachments:add']({ name: 'notes.txt', mime: 'text/plain', dataBase64: SVG.toString('base64') });
    expect(await services.handlers['attachments:get']({ id: text.id })).toMatchObject({ mime: 'application/octet-stream' });
  });
});

describe('an import is validated as strictly as an IPC payload (item 14)', () => {
  const bad: [string, unknown[], Record<string, unknown>?][] = [
    ['a text block whose text is not a string', [{ type: 'text', text: { toString: 'x' } }]],
    ['a text block whose text is a number', [{ type: 'text', text: 42 }]],
    ['a text block with no text', [{ type: 'text' }]],
    ['a reasoning block of unknown origin', [{ type: 'reasoning', text: 'x', origin: 'html' }]],
    ['a tool call whose state is unknown', [{ type: 'tool_call', id: 'c', name: 'x', state: 'running', argumentsRaw: '{}' }]],
    ['a tool result whose content is an object', [{ type: 'tool_result', toolCallId: 'c', name: 'x', content: { a: 1 }, isError: false }]],
    ['an attachment whose size is a string', [{ type: 'attachment', id: 'a'.repeat(64), kind: 'image', name: 'x.png', mime: 'image/png', size: '1' }]],
    ['a turn whose usage holds strings', [{ type: 'text', text: 'hi' }], { usage: { inputTokens: 'lots' } }],
    ['a turn whose error is not a string', [{ type: 'text', text: 'hi' }], { error: ['x'] }],
    ['a turn whose meta is an array', [{ type: 'text', text: 'hi' }], { meta: [] }],
  ];
  for (const [what, blocks, extra] of bad) {
    it(`refuses ${what}`, async () => {
      const result = await importText(exportFile(blocks, {}, extra));
      expect(result.ok, what).toBe(false);
      if (!result.ok) expect(result.error.message, what).toMatch(/^This file cannot be imported: message 1 has (malformed content|a malformed \w+)\. Nothing was imported\.$/);
      expect(await services.handlers['conversations:list']({})).toEqual([]);
    });
  }
});

describe('the one-message import (conversations:import) names the file', () => {
  // Its type took the name, its payload schema refused it ("a field Firebrand does not know (name)"), so a caller
  // could only import unnamed, and a refusal said "This file" of whichever file was picked.
  it('says which file it refused, by the name it came with', async () => {
    const result = await services.dispatcher.dispatch('conversations:import', { text: exportFile([{ type: 'text', text: 42 }]), name: 'tea.firebrand.json' });
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid-payload', message: expect.stringMatching(/^“tea\.firebrand\.json” cannot be imported: message 1 has/) as unknown as string } });
    expect(await services.handlers['conversations:list']({})).toEqual([]);
  });

  it('imports a good file sent with its name', async () => {
    const result = await services.dispatcher.dispatch('conversations:import', { text: exportFile([{ type: 'text', text: 'hi' }]), name: 'tea.firebrand.json' });
    expect(result).toMatchObject({ ok: true, value: { title: 'Imported', imported: 1 } });
  });

  it('words a name too long to be a file name', async () => {
    const result = await services.dispatcher.dispatch('conversations:import', { text: exportFile([{ type: 'text', text: 'hi' }]), name: 'n'.repeat(501) });
    expect(result).toMatchObject({ ok: false, error: { message: 'The file’s name is too long (501 characters): it can be at most 500 characters.' } });
  });
});

describe('blob files without a row (item 15)', () => {
  it('a failed import removes the files it wrote', async () => {
    // Room for the attachment file (on disk, outside SQLite) but not for the rows: the transaction fails.
    services.db.pragma(`max_page_count = ${services.db.pragma('page_count', { simple: true }) as number}`);
    const result = await importText(exportFile([{ type: 'text', text: 'x'.repeat(50_000) }, attachment(PNG, 'image/png', 'image')], { [digestOf(PNG)]: { mime: 'image/png', bytes: PNG } }));
    expect(result.ok).toBe(false);
    expect(blobFiles()).toEqual([]);
  });

  it('GC sweeps files no row names (a crash between file and row), but not files younger than the grace period', async () => {
    const blobs = new BlobStore(services.db, dir);
    const kept = await blobs.put(PNG, { name: 'kept.png', mime: 'image/png' }, Date.now());
    const stray = Buffer.from('left behind by an import that died');
    const strayPath = blobs.pathOf(digestOf(stray));
    mkdirSync(join(strayPath, '..'), { recursive: true });
    writeFileSync(strayPath, stray);
    const tmp = join(strayPath, '..', '.tmp-0b0e6e0e-1b55-4f59-9a4c-5a5c0a0a0a0a');
    writeFileSync(tmp, 'half a write');
    const fresh = Buffer.from('an import writing right now');
    const freshPath = blobs.pathOf(digestOf(fresh));
    mkdirSync(join(freshPath, '..'), { recursive: true });
    writeFileSync(freshPath, fresh);
    const old = (Date.now() - 2 * 60 * 60 * 1000) / 1000;
    utimesSync(strayPath, old, old);
    utimesSync(tmp, old, old);
    const removed = await collect(blobs, () => {}, { now: Date.now() });
    expect(removed).toEqual([digestOf(stray)]);
    expect(blobFiles()).toEqual([kept.id, digestOf(fresh)].sort());
  });
});
