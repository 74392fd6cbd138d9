/**
 * The draft's count from the chat rendered once with a stand-in (draft-template.ts) must be the count of the whole
 * request, or none at all (then the whole is counted as before): a template that trims or escapes the message, or
 * a draft with markup a template might read, is never counted by the split.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DraftTemplates } from '../../../src/main/context/draft-template';
import type { EngineConnection } from '../../../src/main/engine/types';

const SPECIAL = ['<|im_start|>', '<|im_end|>'];

/** A llama-server's /apply-template (ChatML; `trim`: the message trimmed) and /tokenize (a special token is one token, text one a character, BOS first). */
function fakeServer(opts: { trim?: boolean } = {}): Promise<{ server: Server; url: string; paths: string[] }> {
  const paths: string[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      paths.push(req.url ?? '');
      const body = JSON.parse(raw) as { messages?: { role: string; content: string }[]; content?: string; add_special?: boolean; parse_special?: boolean; with_pieces?: boolean };
      if (req.url === '/apply-template') {
        const prompt = (body.messages ?? []).map((m) => `<|im_start|>${m.role}\n${opts.trim ? m.content.trim() : m.content}<|im_end|>\n`).join('') + '<|im_start|>assistant\n';
        res.end(JSON.stringify({ prompt }));
        return;
      }
      const pieces: string[] = body.add_special ? ['<s>'] : [];
      let rest = body.content ?? '';
      while (rest.length > 0) {
        const special = body.parse_special === false ? undefined : SPECIAL.find((s) => rest.startsWith(s));
        const piece = special ?? rest[0]!;
        pieces.push(piece);
        rest = rest.slice(piece.length);
      }
      res.end(JSON.stringify({ tokens: body.with_pieces ? pieces.map((piece, id) => ({ id, piece })) : pieces.map((_, id) => id) }));
    });
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, paths })));
}

const servers: Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

const chat = [
  { role: 'user', content: 'Hello there.' },
  { role: 'assistant', content: 'Hi! What can I do?' },
];
const bodyWith = (text: string) => JSON.stringify({ model: 'm', messages: [...chat, { role: 'user', content: text }] });

async function setup(opts: { trim?: boolean } = {}) {
  const fake = await fakeServer(opts);
  servers.push(fake.server);
  const connection = { id: 'c1', kind: 'llama-server', baseUrl: fake.url, authHeaders: () => ({}) } as unknown as EngineConnection;
  // The whole request counted as the meter counted it before: rendered, then tokenized as a whole prompt.
  const whole = async (text: string) => {
    const { prompt } = (await (await fetch(`${fake.url}/apply-template`, { method: 'POST', body: bodyWith(text) })).json()) as { prompt: string };
    const { tokens } = (await (await fetch(`${fake.url}/tokenize`, { method: 'POST', body: JSON.stringify({ content: prompt, add_special: true }) })).json()) as { tokens: unknown[] };
    return tokens.length;
  };
  return { templates: new DraftTemplates(), connection, whole, paths: fake.paths };
}

describe('counting the draft from the chat rendered once', () => {
  it('gives the whole request’s count, and the pauses after the first render nothing', async () => {
    const { templates, connection, whole, paths } = await setup();
    for (const text of ['Hel', 'Hello, how are you? ', '山山山 ', 'def f(x):\n    return {"a": [x]}\n']) {
      const before = paths.length;
      expect(await templates.count(connection, 'base', text, bodyWith)).toBe(await whole(text));
      // The one render after the first pause is this test's own whole count.
      if (text !== 'Hel') expect(paths.slice(before).filter((p) => p === '/apply-template')).toEqual(['/apply-template']);
    }
  });

  it('counts nothing this way for a template that trims the message, nor for a draft with markup', async () => {
    const trimming = await setup({ trim: true });
    expect(await trimming.templates.count(trimming.connection, 'base', 'Hello ', bodyWith)).toBeUndefined();
    const plain = await setup();
    expect(await plain.templates.count(plain.connection, 'base', 'See <b>this</b>', bodyWith)).toBeUndefined();
    expect(plain.paths).toEqual([]);
  });
});
