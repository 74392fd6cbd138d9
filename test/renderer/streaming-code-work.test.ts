import { describe, expect, it, vi } from 'vitest';

// render.ts sanitizes with DOMPurify, which needs a DOM: here it passes markdown-it's HTML through.
vi.mock('dompurify', () => ({ default: { addHook: () => {}, setConfig: () => {}, sanitize: (html: string) => html } }));

describe('a long code block while it streams', () => {
  it('is highlighted at the cost of its new text: the work over the stream grows with its length, not its square', async () => {
    const { drawGrowingFence, renderMarkdown } = await import('../../src/renderer/markdown/render');
    const { hljs } = await import('../../src/renderer/markdown/grammars');
    const highlight = vi.spyOn(hljs, 'highlight');
    const code = Array.from({ length: 300 }, (_, i) => `  total += items[${i}] * 2; // step ${i}`).join('\n');
    const text = `Here is the file:\n\`\`\`ts\nfunction run(items: number[]) {\n${code}\n`;
    let view: ReturnType<typeof drawGrowingFence> = null;
    let highlighted = 0;
    highlight.mockClear();
    // As the chat's growing tail (GrowingTail.tsx) draws each frame, a few characters more each time.
    for (let at = 1; at <= text.length; at += 7) {
      const tail = text.slice(0, at);
      view = drawGrowingFence(view, tail);
      if (!view) renderMarkdown(tail, false);
    }
    for (const call of highlight.mock.calls) highlighted += String(call[0]).length;
    // Each frame highlights its few live lines again (about 200 characters): linear in the length. Drawn whole at
    // each frame, the block was highlighted from its start 1,600 times: 9.6 million characters for 11,500.
    expect(highlighted).toBeLessThan(text.length * 40);
    expect(view?.pieces.length).toBeGreaterThan(20);
    expect(view?.before).toContain('Here is the file:');
  });

  it('is highlighted at the cost of its new text inside an open <details> fold too', async () => {
    const { drawGrowingFence, drawGrowingFold, renderMarkdown } = await import('../../src/renderer/markdown/render');
    const { splitGrowing } = await import('../../src/renderer/markdown/split-blocks');
    const { hljs } = await import('../../src/renderer/markdown/grammars');
    const highlight = vi.spyOn(hljs, 'highlight');
    const code = Array.from({ length: 300 }, (_, i) => `  total += items[${i}] * 2; // step ${i}`).join('\n');
    const text = `<details>\n<summary>The whole file</summary>\n\nIt reads:\n\n\`\`\`ts\nfunction run(items: number[]) {\n${code}\n`;
    let fold: ReturnType<typeof drawGrowingFold> = null;
    let fence: ReturnType<typeof drawGrowingFence> = null;
    let split: ReturnType<typeof splitGrowing> | undefined;
    highlight.mockClear();
    // As GrowingTail.tsx draws each frame: a fold's content in chunks, its last one as a growing tail.
    for (let at = 1; at <= text.length; at += 7) {
      const tail = text.slice(0, at);
      fold = drawGrowingFold(fold, tail);
      if (!fold) {
        renderMarkdown(tail, false);
        continue;
      }
      const content = tail.slice(fold.draft.innerStart);
      split = splitGrowing(split, content);
      for (const chunk of split.chunks.slice(0, -1)) renderMarkdown(chunk, true, undefined, true);
      const last = content.slice(content.lastIndexOf(split.chunks.at(-1) ?? ''));
      fence = drawGrowingFence(fence, last, undefined, true);
      if (!fence) renderMarkdown(last, false, undefined, true);
    }
    const highlighted = highlight.mock.calls.reduce((sum, call) => sum + String(call[0]).length, 0);
    expect(highlighted).toBeLessThan(text.length * 40);
    expect(fold?.summary).toBe('The whole file');
    expect(fence?.pieces.length).toBeGreaterThan(20);
  });

  it('is highlighted at the cost of its new text inside a list item and inside a quote too', async () => {
    const { drawGrowingFence, renderMarkdown } = await import('../../src/renderer/markdown/render');
    const { hljs } = await import('../../src/renderer/markdown/grammars');
    const highlight = vi.spyOn(hljs, 'highlight');
    const code = (lead: string) => Array.from({ length: 300 }, (_, i) => `${lead}total += items[${i}] * 2; // step ${i}`).join('\n');
    // Steps with a command each, the last one a long file; and a quoted snippet.
    const list = `Do this:\n\n1. Install:\n   \`\`\`ts\n   npm i x\n   \`\`\`\n2. Write the file:\n   \`\`\`ts\n   function run(items: number[]) {\n${code('     ')}\n`;
    const quote = `You wrote:\n\n> \`\`\`ts\n> function run(items: number[]) {\n${code('>   ')}\n`;
    // A step that quotes a file (a quote in a list item), and a quote whose code is indented with tabs.
    const listedQuote = `Do this:\n\n1. Check the file:\n   > \`\`\`ts\n   > function run(items: number[]) {\n${code('   >   ')}\n`;
    const tabbedQuote = `You wrote:\n\n> \`\`\`ts\n> function run(items: number[]) {\n${code('>\t')}\n`;
    for (const text of [list, quote, listedQuote, tabbedQuote]) {
      let view: ReturnType<typeof drawGrowingFence> = null;
      highlight.mockClear();
      for (let at = 1; at <= text.length; at += 7) {
        const tail = text.slice(text.indexOf('\n\n') + 2, at);
        view = drawGrowingFence(view, tail);
        if (!view) renderMarkdown(tail, false);
      }
      const highlighted = highlight.mock.calls.reduce((sum, call) => sum + String(call[0]).length, 0);
      // Drawn whole at each frame, the list or quote was highlighted from its start about 1,800 times.
      expect(highlighted, text.slice(0, 20)).toBeLessThan(text.length * 40);
      expect(view?.draft.container).not.toBeNull();
      expect(view?.pieces.length).toBeGreaterThan(20);
    }
  });

  it('compares the text it had with the text it has at the cost of the new text: no character by character scan of it all', async () => {
    const { drawGrowingFence } = await import('../../src/renderer/markdown/render');
    const { splitGrowing } = await import('../../src/renderer/markdown/split-blocks');
    const code = (lead: string, end: string) => Array.from({ length: 300 }, (_, i) => `${lead}total += items[${i}] * 2; // step ${i}`).join(end);
    // Each step that reuses its work asked whether the text only grew with startsWith, which V8 runs a character at a
    // time: at every token a scan of the whole tail (45 µs at 60,000 characters, 560 µs with a character outside
    // Latin-1), the last O(n) in a long block's frame (bench/streaming-code: 2.5x to 4x at the end of 200 lines).
    const shapes = [
      `1. Write the file:\n   \`\`\`ts\n${code('   ', '\n')}\n`,
      `> 1. Write the file:\n>    \`\`\`ts\n${code('>    ', '\n')}\n`,
      `\`\`\`ts\r\n${code('', '\r\n')}\r\n`,
    ];
    const original = String.prototype.startsWith;
    let compared = 0;
    const spy = vi.spyOn(String.prototype, 'startsWith').mockImplementation(function (this: string, search: string, position?: number) {
      // Only long prefixes: a cut compares a piece's HTML with its lines' (a few lines, bounded), which is no scan of the text.
      if (String(search).length > 2000) compared += String(search).length;
      return original.call(this, search, position);
    });
    try {
      for (const text of shapes) {
        compared = 0;
        let view: ReturnType<typeof drawGrowingFence> = null;
        let split: ReturnType<typeof splitGrowing> | undefined;
        for (let at = 1; at <= text.length; at += 7) {
          const now = text.slice(0, at);
          split = splitGrowing(split, now);
          view = drawGrowingFence(view, split.chunks.at(-1) ?? '');
        }
        expect(view?.pieces.length, JSON.stringify(text.slice(0, 12))).toBeGreaterThan(20);
        // At most linear in the text: before, about 1,600 frames each compared the whole text read so far (millions).
        expect(compared, JSON.stringify(text.slice(0, 12))).toBeLessThan(text.length);
      }
    } finally {
      spy.mockRestore();
    }
  });

  it('reads a block written with \\r\\n line breaks at the cost of its new text: no copy of the whole tail at each token', async () => {
    const { growFence } = await import('../../src/renderer/markdown/growing-fence');
    const code = Array.from({ length: 300 }, (_, i) => `  total += items[${i}] * 2; // step ${i}`).join('\r\n');
    const shapes = [`\`\`\`ts\r\n${code}\r\n`, `1. Write the file:\r\n   \`\`\`ts\r\n${code.replace(/^/gm, '   ')}\r\n`];
    // Characters that string work runs over, but for the stream's own text (compared once a token: text-growth.ts):
    // the tail read as markdown-it reads it (its \r\n made \n) was a new string of the whole tail at every token,
    // copied whole by the next slice of it.
    let read = 0;
    let raw = '';
    const spies = (['slice', 'indexOf', 'lastIndexOf', 'split'] as const).map((name) => {
      const original = String.prototype[name] as (...args: unknown[]) => unknown;
      return vi.spyOn(String.prototype, name).mockImplementation(function (this: string, ...args: unknown[]) {
        if (this.length > 2000 && this.length !== raw.length) read += this.length;
        return original.apply(this, args);
      } as never);
    });
    try {
      for (const text of shapes) {
        read = 0;
        let draft: ReturnType<typeof growFence> = null;
        for (let at = 1; at <= text.length; at += 7) {
          // substring: not one of the spied methods.
          raw = text.substring(0, at);
          draft = growFence(draft, raw);
        }
        const shape = text.substring(0, 8);
        expect(draft?.pieces.length, shape).toBeGreaterThan(20);
        // None at all now; before, about 1,700 tokens each read the whole tail: some 20 million characters.
        expect(read, shape).toBeLessThan(text.length);
      }
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });

  it('is split into chunks at the cost of its new lines: the splitter goes on from where it was, not from the last chunk', async () => {
    const { splitGrowing, splitMarkdownBlocks } = await import('../../src/renderer/markdown/split-blocks');
    const code = Array.from({ length: 300 }, (_, i) => `  total += items[${i}] * 2; // step ${i}`).join('\n');
    const text = `Intro.\n\n- a\n\n- b\n\n\`\`\`ts\nfunction run(items: number[]) {\n${code}\n`;
    // Lines the splitter reads: each is trimmed to see whether it is blank.
    const original = String.prototype.trim;
    let read = 0;
    const spy = vi.spyOn(String.prototype, 'trim').mockImplementation(function (this: string) {
      read++;
      return original.call(this);
    });
    let split: ReturnType<typeof splitGrowing> | undefined;
    let frames = 0;
    try {
      for (let at = 1; frames === 0 || at < text.length + 7; at += 7, frames++) split = splitGrowing(split, text.slice(0, Math.min(at, text.length)));
    } finally {
      spy.mockRestore();
    }
    expect(split?.chunks).toEqual(splitMarkdownBlocks(text));
    // A few lines a frame. Before, the block's chunk was split again from its start at every frame: its 300 lines,
    // about 150 on average, read at each of about 1,650 frames.
    expect(read / frames).toBeLessThan(10);
  });

  it('highlights a few hundred characters a token at the end of a very long line too (minified JSON), at the top level and in a list item', async () => {
    const { growFence } = await import('../../src/renderer/markdown/growing-fence');
    const { hljs } = await import('../../src/renderer/markdown/grammars');
    const highlight = vi.spyOn(hljs, 'highlight');
    const json = JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ id: i, name: `item ${i}`, tags: ['a', 'b'], ok: i % 2 === 0 })));
    for (const text of [`\`\`\`json\n${json}`, `1. Save it:\n   \`\`\`json\n   ${json}`]) {
      highlight.mockClear();
      let draft: ReturnType<typeof growFence> = null;
      let frames = 0;
      for (let at = 1; at <= text.length; at += 4, frames++) draft = growFence(draft, text.slice(0, at));
      const highlighted = highlight.mock.calls.reduce((sum, call) => sum + String(call[0]).length, 0);
      expect(draft?.pieces.length, text.slice(0, 8)).toBeGreaterThan(20);
      // About 320 characters a frame; cut only past 1,000 characters, the live part averaged about 650, three times a
      // frame's near the line's start.
      expect(highlighted / frames, text.slice(0, 8)).toBeLessThan(450);
    }
  });
});
