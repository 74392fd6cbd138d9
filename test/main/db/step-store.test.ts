import { describe, expect, it } from 'vitest';
import { ConversationStore } from '../../../src/main/db/conversation-store';
import { sha256Hex, templateBody } from '../../../src/main/db/request-body';
import { redactEndpoint, StepStore, type StepBegin } from '../../../src/main/db/step-store';
import { makeTurn, memoryDb, text, tick } from './helpers';

const IMG_A = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7) % 256));
const IMG_B = Buffer.from(Array.from({ length: 2000 }, (_, i) => (i * 13 + 5) % 256));
const DIGEST_A = sha256Hex(IMG_A);
const DIGEST_B = sha256Hex(IMG_B);

function setup() {
  const db = memoryDb();
  const blobs = new Map([[DIGEST_A, IMG_A], [DIGEST_B, IMG_B]]);
  for (const [d, b] of blobs) db.prepare('INSERT INTO blobs VALUES (?, ?, ?, ?)').run(d, b.length, 'image/png', 1);
  const store = new ConversationStore(db);
  store.createConversation('c', 'Steps', 'm', tick());
  store.appendTurn(makeTurn({ id: 'u', conversationId: 'c', blocks: text('hi') }), tick());
  store.appendTurn(makeTurn({ id: 'a', conversationId: 'c', parentId: 'u', role: 'assistant', status: 'streaming' }), tick());
  const steps = new StepStore(db, (d) => blobs.get(d));
  return { db, steps };
}

/** The three ways dialects inline an image: Ollama base64, an OpenAI data URI, an Anthropic source. */
function bodyWithImages(): string {
  const a = IMG_A.toString('base64');
  const b = IMG_B.toString('base64');
  return JSON.stringify({
    model: 'llava',
    messages: [
      { role: 'user', content: 'two pictures — ünïcödé', images: [a, b] },
      { role: 'user', content: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${a}` } }] },
      { role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: b } }] },
    ],
    options: { num_ctx: 8192 },
  });
}

function begin(overrides: Partial<StepBegin> = {}): StepBegin {
  return {
    id: 's1', turnId: 'a', conversationId: 'c', stepIndex: 0, body: bodyWithImages(), attachments: [DIGEST_A, DIGEST_B],
    dialect: 'ollama', endpoint: 'http://127.0.0.1:11434/api/chat', model: 'llava', contextWindow: 8192, tokenEstimate: 1234, now: 10, ...overrides,
  };
}

describe('StepStore', () => {
  it('records a step before sending, committed, with the sha256 of the exact body', () => {
    const { steps, db } = setup();
    const body = bodyWithImages();
    expect(steps.begin(begin())).toBe('s1');
    expect(db.inTransaction).toBe(false);
    expect(steps.get('s1')).toMatchObject({
      turnId: 'a', stepIndex: 0, requestDigest: sha256Hex(Buffer.from(body, 'utf8')), dialect: 'ollama', model: 'llava',
      contextWindow: 8192, tokenEstimate: 1234, stop: null, finishedAt: null, createdAt: 10,
    });
  });

  it('rehydrates the exact bytes (same digest) without storing the attachment bytes in the template', () => {
    const { steps, db } = setup();
    steps.begin(begin());
    const digest = steps.get('s1')!.requestDigest;
    const rebuilt = steps.rehydrateBody(digest)!;
    expect(sha256Hex(rebuilt)).toBe(digest);
    expect(rebuilt.toString('utf8')).toBe(bodyWithImages());
    const { template } = db.prepare('SELECT template FROM request_bodies WHERE digest = ?').get(digest) as { template: string };
    expect(template).not.toContain(IMG_A.toString('base64').slice(0, 200));
    expect(template.length).toBeLessThan(1000);
    expect(db.prepare('SELECT blob_digest FROM request_body_blobs ORDER BY blob_digest').all()).toEqual(
      [DIGEST_A, DIGEST_B].sort().map((d) => ({ blob_digest: d })),
    );
  });

  it('stores a body shared by two steps once', () => {
    const { steps, db } = setup();
    steps.begin(begin());
    steps.begin(begin({ id: 's2', stepIndex: 1 }));
    expect(db.prepare('SELECT count(*) AS n FROM request_bodies').get()).toEqual({ n: 1 });
    expect(steps.listForTurn('a').map((s) => s.id)).toEqual(['s1', 's2']);
  });

  it('rebuilds bodies that are not valid UTF-8 byte for byte', () => {
    const body = Buffer.concat([Buffer.from('{"x":"'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from(IMG_A.toString('base64')), Buffer.from('"}')]);
    const { steps } = setup();
    steps.begin(begin({ body }));
    const digest = steps.get('s1')!.requestDigest;
    expect(steps.rehydrateBody(digest)!.equals(body)).toBe(true);
    expect(templateBody(body, new Map([[DIGEST_A, IMG_A]])).segments.map((s) => Object.keys(s)[0])).toEqual(['x', 'b', 't']);
  });

  it('finishes a step with wire reason, derived stop, usage, timings and error', () => {
    const { steps } = setup();
    steps.begin(begin());
    expect(steps.finish('s1', { wireReason: 'stop', stop: 'tool_use', usage: { inputTokens: 5, outputTokens: 7 }, timings: { ttftMs: 120 }, now: 20 })).toBe(true);
    expect(steps.get('s1')).toMatchObject({ wireReason: 'stop', stop: 'tool_use', usage: { inputTokens: 5, outputTokens: 7 }, timings: { ttftMs: 120 }, error: null, finishedAt: 20 });
    expect(steps.finish('missing', { wireReason: null, stop: 'error', error: 'x', now: 1 })).toBe(false);
  });

  it('never stores credentials from the endpoint', () => {
    const { steps } = setup();
    steps.begin(begin({ endpoint: 'https://user:s3cret@gpu.lan:8080/v1/chat/completions?api_key=s3cret#frag' }));
    expect(steps.get('s1')!.endpoint).toBe('https://gpu.lan:8080/v1/chat/completions');
    expect(redactEndpoint('not a url')).toBe('(unparseable endpoint)');
  });
});
