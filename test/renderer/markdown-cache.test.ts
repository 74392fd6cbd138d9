import { beforeEach, describe, expect, it, vi } from 'vitest';
import { TextCache } from '../../src/renderer/markdown/text-cache';

// render.ts sanitizes with DOMPurify, which needs a DOM: here it passes markdown-it's HTML through, counted.
const sanitize = vi.fn((html: string) => html);
vi.mock('dompurify', () => ({ default: { addHook: () => {}, setConfig: () => {}, sanitize: (html: string) => sanitize(html) } }));

/** A chunk as a model writes a file out: one fenced code block of about 40,000 characters. */
const codeChunk = (k: number) => `\`\`\`js\n${Array.from({ length: 1000 }, (_, i) => `const v${k}_${i} = 'abcdefghijklmnopqrstuvwxyz';`).join('\n')}\n\`\`\``;

describe('the rendered-markdown cache over a long session', () => {
  beforeEach(() => sanitize.mockClear());

  it('keeps a bounded amount of text: old large chunks leave it, the recent ones stay', async () => {
    const { renderMarkdown } = await import('../../src/renderer/markdown/render');
    const first = codeChunk(0);
    renderMarkdown(first);
    // 150 answers that each wrote a 40,000-character file: kept by entry count alone, all of them (and their
    // highlighted HTML, several times the text) stayed in the page for the rest of the session.
    for (let k = 1; k <= 150; k++) renderMarkdown(codeChunk(k));
    sanitize.mockClear();
    renderMarkdown(codeChunk(150));
    expect(sanitize).not.toHaveBeenCalled();
    renderMarkdown(first);
    expect(sanitize).toHaveBeenCalledTimes(1);
  });
});

describe('a fold still being written', () => {
  it('is drawn as such only as a streaming tail: the chunk it finishes as is drawn without the sign', async () => {
    const { renderMarkdown } = await import('../../src/renderer/markdown/render');
    const fold = '<details>\n<summary>Log</summary>\n\nline 1';
    expect(renderMarkdown(fold, false)).toContain('data-writing');
    expect(renderMarkdown(fold, true)).not.toContain('data-writing');
    expect(renderMarkdown(fold, false)).toContain('data-writing');
  });
});

describe('TextCache', () => {
  it('evicts the oldest entries past its character budget and its entry count, and keeps the newest', () => {
    const c = new TextCache<string>(3, 100, (v) => v.length);
    c.set('a', 'x'.repeat(40));
    c.set('b', 'x'.repeat(40));
    expect(c.chars).toBe(82);
    c.set('c', 'x'.repeat(40));
    expect(c.has('a')).toBe(false);
    expect(c.has('b') && c.has('c')).toBe(true);
    expect(c.chars).toBe(82);
    c.set('d', '');
    c.set('e', '');
    expect(c.size).toBe(3);
    expect(c.has('b')).toBe(false);
    c.set('huge', 'x'.repeat(500));
    expect(c.size).toBe(1);
    expect(c.get('huge')).toHaveLength(500);
    c.set('huge', 'y');
    expect(c.chars).toBe(5);
  });
});
