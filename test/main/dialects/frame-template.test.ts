/**
 * The frame template's promise: every frame reads exactly as JSON.parse reads it, whatever the stream sends
 * (random shapes, strings with quotes, backslashes, \u escapes, surrogate pairs and control characters, a number
 * where a string was, keys reordered, extra fields, nested arrays), and values it returned earlier never change.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FrameTemplate } from '../../../src/main/dialects/shared/frame-template';
import { prng } from '../../../src/main/leg/chunking';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 6 }),
  fc.constantFrom('', '"', '\\', '\n', '\u0000', '\u001f', 'é', '😀', '\ud83d', 'a"b', 'a\\"b', '\\u00e9', ' tok', ' tok'),
);
const scalar: fc.Arbitrary<Json> = fc.oneof(text, text, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null));
const { value } = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    scalar,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'content', 'text', '"k', '1', '__proto__'), tie('value'), { maxKeys: 4 }),
  ),
}));

const key = fc.constantFrom('a', 'b', 'content', 'text', '"k', '1', '__proto__');
// A frame is an object or an array, with at least one string in it most of the time.
const shape = fc.oneof(fc.dictionary(key, value, { minKeys: 1, maxKeys: 4 }), fc.array(value, { minLength: 1, maxLength: 3 }), fc.record({ delta: fc.record({ text }) }));

/** A frame derived from the base: some strings changed, sometimes a number in a string's slot, keys reordered, fields added. */
function vary(base: Json, pick: () => number, strings: string[]): Json {
  if (typeof base === 'string') {
    const r = pick();
    return r < 0.01 ? 7 : r < 0.6 ? strings[Math.floor(pick() * strings.length)]! : base;
  }
  if (Array.isArray(base)) return base.map((v) => vary(v, pick, strings));
  if (base !== null && typeof base === 'object') {
    const entries = Object.entries(base).map(([k, v]) => [k, vary(v, pick, strings)] as const);
    if (pick() < 0.01) entries.reverse();
    if (pick() < 0.01) entries.push(['extra', 'x']);
    return Object.fromEntries(entries) as Json;
  }
  return base;
}

/** JSON text as a server might write it: mostly compact, sometimes every character of a string as a \u escape, or spaced. */
function write(v: Json, style: number): string {
  if (style < 0.85) return JSON.stringify(v);
  if (style < 0.95) return JSON.stringify(v, (_k, x: unknown) => x).replace(/"((?:[^"\\]|\\.)*)"/g, (m) => escapeAll(JSON.parse(m) as string));
  return JSON.stringify(v, null, 1);
}

function escapeAll(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) out += `\\u${s.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return `${out}"`;
}

/** What a random stream is made of: its base shapes, the strings that vary in them, and a seed for the picks. */
const stream = [fc.array(shape, { minLength: 1, maxLength: 3 }), fc.array(text, { minLength: 1, maxLength: 8 }), fc.integer()] as const;

/** A random stream's 30 frames: each a base picked at random, its strings varied, written in a random style. */
function* frames30(bases: Json[], strings: string[], pick: () => number): Generator<string> {
  for (let i = 0; i < 30; i++) yield write(vary(bases[Math.floor(pick() * bases.length)]!, pick, strings), pick());
}

describe('FrameTemplate', () => {
  it('reads every frame of a random stream exactly as JSON.parse does, and never changes a value it returned', () => {
    let hits = 0;
    fc.assert(
      fc.property(
        ...stream,
        (bases, strings, seed) => {
          // fast-check's numbers lean to the edges (0, the max); the choices between frames want an even spread.
          const pick = prng(seed);
          const frames = new FrameTemplate();
          const seen: { got: unknown; text: string }[] = [];
          for (const t of frames30(bases, strings, pick)) {
            const got = frames.parse(t);
            expect(got).toStrictEqual(JSON.parse(t));
            seen.push({ got, text: t });
          }
          for (const { got, text: t } of seen) expect(got).toStrictEqual(JSON.parse(t));
          hits += frames.hits;
        },
      ),
      { numRuns: 300 },
    );
    // The shortcut itself was tested, not only the JSON.parse it falls back to.
    expect(hits).toBeGreaterThan(1000);
  });

  it('reads a plain hole as the string JSON.parse finds there, in a frame that is the template but for its holes', () => {
    let plainHits = 0;
    fc.assert(
      fc.property(
        ...stream,
        (bases, strings, seed) => {
          const pick = prng(seed);
          // Any hole may be a dialect's plain one: here the first whose key is `text` (a token's, in `delta`).
          const frames = new FrameTemplate((t) => t.paths.findIndex((p) => p[p.length - 1] === 'text'));
          for (const t of frames30(bases, strings, pick)) {
            const plain = frames.readPlain(t);
            if (plain === undefined) {
              expect(frames.parse(t)).toStrictEqual(JSON.parse(t));
              continue;
            }
            plainHits++;
            const template = frames.current!;
            const hole = template.paths.findIndex((p) => p[p.length - 1] === 'text');
            const parsed = JSON.parse(t) as Json;
            expect(at(parsed, template.paths[hole]!)).toBe(plain);
            // Put the template's strings back at every hole: what is left is the template's value, exactly.
            for (const path of template.paths) put(parsed, path, at(template.value as Json, path));
            expect(parsed).toStrictEqual(template.value);
          }
        },
      ),
      { numRuns: 300 },
    );
    expect(plainHits).toBeGreaterThan(200);
  });

  it('throws what JSON.parse throws for a frame that is not JSON, and reads on after it', () => {
    const frames = new FrameTemplate();
    const frame = (s: string) => JSON.stringify({ delta: { text: s }, n: 1 });
    for (const s of ['a', 'b', 'c']) expect(frames.parse(frame(s))).toStrictEqual(JSON.parse(frame(s)));
    const broken = frame('d').slice(0, -3);
    expect(() => frames.parse(broken)).toThrow(SyntaxError);
    expect(() => frames.parse('{"delta":{"text":"x\u0001"},"n":1}')).toThrow(SyntaxError);
    expect(() => frames.parse('{"delta":{"text":"x\\q"},"n":1}')).toThrow(SyntaxError);
    expect(frames.parse(frame('e'))).toStrictEqual({ delta: { text: 'e' }, n: 1 });
    expect(frames.hits).toBeGreaterThan(0);
  });

  it('keeps reading a run of identical frames through a template after a number between them changes', () => {
    // llama-server's `created` (seconds) ticks mid-stream; a derailed call (the malformed-call script) then sends
    // the same `"#"` frame thousands of times. No string differs between those frames, but the argument is the
    // string seen to vary before: it stays a hole, so each tick costs one or two JSON.parse calls, not every frame.
    const frame = (created: number, args: string) =>
      `{"choices":[{"finish_reason":null,"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":${JSON.stringify(args)}}}]}}],"created":${created},"id":"chatcmpl-x","object":"chat.completion.chunk"}`;
    const frames = new FrameTemplate();
    const texts = [frame(1, '"timezone":'), frame(1, '\n"')];
    for (let created = 2; created <= 4; created++) for (let i = 0; i < 100; i++) texts.push(frame(created, '#'));
    for (const t of texts) expect(frames.parse(t)).toStrictEqual(JSON.parse(t));
    expect(frames.misses).toBeLessThanOrEqual(2 + 3 * 2);
  });

  it('shares no part between frames that anyone can change: a write into one throws and later frames read right', () => {
    const frames = new FrameTemplate();
    const frame = (s: string) => JSON.stringify({ delta: { text: s }, meta: { n: 1, tags: ['a'] } });
    const values = ['a', 'b', 'c', 'd'].map((s) => frames.parse(frame(s)) as { delta: { text: string }; meta: { n: number; tags: string[] } });
    expect(frames.hits).toBeGreaterThan(0);
    // `meta` is not on the way to a hole: every value after the template shares the template's object.
    const shared = values[3]!.meta;
    expect(() => {
      shared.n = 2;
    }).toThrow(TypeError);
    expect(() => shared.tags.push('b')).toThrow(TypeError);
    // The containers on the way to a hole are each value's own, the template's source frame's included.
    values[3]!.delta.text = 'changed';
    (values[1]!.delta as Record<string, unknown>)['extra'] = 1;
    expect(frames.parse(frame('e'))).toStrictEqual({ delta: { text: 'e' }, meta: { n: 1, tags: ['a'] } });
    expect([values[0], values[2]]).toStrictEqual(['a', 'c'].map((s) => JSON.parse(frame(s))));
  });
});

function at(v: Json, path: readonly (string | number)[]): Json {
  let node = v;
  for (const k of path) node = (node as Record<string | number, Json>)[k]!;
  return node;
}

function put(v: Json, path: readonly (string | number)[], x: Json): void {
  let node = v;
  for (let i = 0; i < path.length - 1; i++) node = (node as Record<string | number, Json>)[path[i]!]!;
  (node as Record<string | number, Json>)[path[path.length - 1]!] = x;
}
