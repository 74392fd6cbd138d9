/**
 * A long code block streaming (markdown/growing-fence.ts): the markdown work of each token while a 600-line
 * TypeScript file streams in tokens of about 4 characters, as the chat draws its growing tail, at the top level, as
 * the last step of a numbered list (markdown/contained-fence.ts), in a list in a quote and a quote in a list, with
 * `\r\n` line breaks (line-breaks.ts), and
 * minified JSON on one long line; then lists, tables and quotes drawn in parts. Before, the tail was parsed and highlighted
 * whole at every token (O(n^2) over the stream; drawn whole below, for comparison), the whole list with it; now the
 * finished lines are highlighted once. Floor: rendering the finished block once. Pure Node: markdown-it and
 * highlight.js, without the page's sanitizing and layout (bench/smoothness measures those in Chromium).
 */
import { performance } from 'node:perf_hooks';
import { fenceDraftHtml, growFence, type FenceDraft } from '../src/renderer/markdown/growing-fence';
import { markdownToHtml } from '../src/renderer/markdown/to-html';
import { splitGrowing, splitMarkdownBlocks, type SplitState } from '../src/renderer/markdown/split-blocks';
import { drawList, listViewHtml, type ListView } from '../src/renderer/markdown/list-view';
import { drawTable, tableViewHtml, type TableView } from '../src/renderer/markdown/table-view';
import { growQuote, type QuoteDraft } from '../src/renderer/markdown/growing-quote';
import { quick, report } from './lib/report';

const LINES = quick ? 200 : 600;
const code = Array.from({ length: LINES }, (_, i) =>
  i % 40 === 0 ? `/**\n * Step ${i}: what it does and why.\n */` : `export const step${i} = (input: string[]): number => input.filter((w) => w.length > ${i % 7}).length; // ${i}`,
).join('\n');
/** The block at the top level, and as the last of three steps, its lines indented as the list item's. */
const SHAPES = [
  { name: '', text: `\`\`\`ts\n${code}\n` },
  {
    name: ' in a list item',
    text: `1. Install it:\n   \`\`\`bash\n   npm i x\n   \`\`\`\n2. Then:\n\n   - check it\n3. Write the file:\n   \`\`\`ts\n${code.replace(/^/gm, '   ')}\n`,
  },
  // A list in a quote: a step the user quoted back (markdown/contained-fence.ts, 'quoted-list').
  { name: ' in a list item in a quote', text: `> 1. Write the file:\n>    \`\`\`ts\n${code.replace(/^/gm, '>    ')}\n` },
  // A quote in a list: a step that quotes a file ('listed-quote').
  { name: ' in a quote in a list item', text: `1. Check the file:\n   > \`\`\`ts\n${code.replace(/^/gm, '   > ')}\n` },
  // Line breaks written \r\n (markdown/line-breaks.ts).
  { name: ' with \\r\\n line breaks', text: `\`\`\`ts\r\n${code.replace(/\n/g, '\r\n')}\r\n` },
];
/** Minified JSON on one line of about as many characters (cut inside the line: growing-fence.ts, cutInLine). */
const json = JSON.stringify(Array.from({ length: quick ? 200 : 600 }, (_, i) => ({ id: i, name: `item ${i}`, tags: ['a', 'b'], ok: i % 2 === 0 })));
SHAPES.push({ name: ` of minified JSON on one line (${json.length.toLocaleString('en-US')} characters)`, text: `\`\`\`json\n${json}` });
// The same line as a list item's code: a step that saves the file (cut inside the line there too).
SHAPES.push({ name: ` of minified JSON on one line (${json.length.toLocaleString('en-US')} characters) in a list item`, text: `1. Save it as \`data.json\`:\n   \`\`\`json\n   ${json}` });
/** Drawn whole, only each this many-th token is timed: at every one, the stream took minutes. */
const WHOLE_EVERY = 200;

/**
 * Each token's work, summed (`total`), and its mean over the first 100 tokens of the block (from token `from`) and
 * the last 100. `every`: only each `every`-th token is drawn, its time counted `every` times (drawing whole at every
 * token takes minutes).
 */
function stream(tokens: string[], from: number, draw: (tail: string) => void, every = 1): { total: number; first: number; last: number } {
  let tail = '';
  let total = 0;
  let first = 0;
  let last = 0;
  for (const [i, token] of tokens.entries()) {
    tail += token;
    const early = i >= from && i < from + 100;
    const edge = early || i >= tokens.length - 100;
    if (!edge && i % every !== 0) continue;
    const start = performance.now();
    draw(tail);
    const took = performance.now() - start;
    if (early) first += took;
    else if (i >= tokens.length - 100) last += took;
    total += edge ? took : took * every;
  }
  return { total, first: first / 100, last: last / 100 };
}

/**
 * The same shape cut short: what comes before its code, then only its code's last `keep` characters or so, cut where
 * a line (or, in one long line, a JSON object) starts and where its tokens fall as the long text's do. Its last 100
 * tokens are the long text's last 100, on the same lines: what differs is only how long the block before them is.
 */
function cutShort(text: string, codeStart: number, keep: number): string {
  const oneLine = !text.slice(codeStart).includes('\n');
  // In one long line the code goes on from an object's start, in an array as the line's was.
  const prefix = oneLine ? `${/^[ >]*/.exec(text.slice(codeStart))![0]}[` : '';
  const starts = oneLine ? /\{"id":/g : /\n/g;
  starts.lastIndex = text.length - keep;
  for (let m = starts.exec(text); m; m = starts.exec(text)) {
    const at = oneLine ? m.index : m.index + 1;
    if ((at - codeStart - prefix.length) % 4 === 0) return text.slice(0, codeStart) + prefix + text.slice(at);
  }
  throw new Error('no place to cut the block short where its tokens fall as the long one’s');
}

/**
 * The two figures of one streamed shape: a token's work at the end of the stream against `short`, the same tokens'
 * at the end of the same block cut short (flat is the goal: a token's work should not grow with the block), and the whole
 * stream's work against rendering the finished text once.
 */
function reportStream(label: string, run: { total: number; first: number; last: number }, short: number, floor: number, notes: { perToken: string; total?: string }): void {
  report({
    figure: `markdown work per token at the end of ${label}`,
    value: Number(run.last.toFixed(3)),
    unit: 'ms',
    // Floor: the same last 100 tokens, on the same lines, at the end of a block of about 40 lines (cutShort), where
    // the text allows that. Until round 11 it was the block's first 100 tokens, which fall on its short opening
    // comment lines and read about half the cost of a token among long code lines anywhere in the block: every
    // shape then read about 2x.
    floor: Number(short.toFixed(3)),
    ratio: Number((run.last / short).toFixed(2)),
    goal: '<= 2x floor (flat)',
    met: run.last <= 2 * short,
    note: `${notes.perToken}; a token near the block's start: ${run.first.toFixed(3)} ms`,
  });
  report({
    figure: `markdown work over the whole stream of ${label}`,
    value: Math.round(run.total),
    unit: 'ms',
    floor: Math.round(floor),
    ratio: Number((run.total / floor).toFixed(1)),
    ...(notes.total ? { note: notes.total } : {}),
  });
}

for (const { name, text } of SHAPES) {
  const tokens = text.match(/[\s\S]{1,4}/g)!;
  // The first token after the block's fence line: the list's other steps come before it.
  const codeStart = text.indexOf('\n', text.lastIndexOf('```')) + 1;
  let from = 0;
  for (let length = 0; length < codeStart; from++) length += tokens[from]!.length;
  // Warm-up: grammars built and code compiled before anything is timed.
  markdownToHtml(text);
  let draft: FenceDraft | null = null;
  const drafted = stream(tokens, from, (tail) => {
    draft = growFence(draft, tail);
  });
  if (!draft) throw new Error(`the open code block${name} was not drafted`);
  if (fenceDraftHtml(draft, markdownToHtml((draft as FenceDraft).before)) !== markdownToHtml(text)) throw new Error(`the draft${name} differs from the whole render`);
  // The same last tokens at the end of a block of about 40 lines (4,000 characters of JSON).
  const shortText = cutShort(text, codeStart, 4000);
  const shortTokens = shortText.match(/[\s\S]{1,4}/g)!;
  if (shortTokens.slice(-100).join('') !== tokens.slice(-100).join('') || shortTokens.length >= tokens.length / 2) throw new Error(`the block${name} was not cut short as meant`);
  let shortDraft: FenceDraft | null = null;
  const short = stream(shortTokens, from, (tail) => {
    shortDraft = growFence(shortDraft, tail);
  });
  const whole = stream(tokens, from, (tail) => void markdownToHtml(tail), WHOLE_EVERY);
  const once = performance.now();
  markdownToHtml(text);
  const floor = performance.now() - once;
  const label = `a ${name.includes('JSON') ? '' : `${LINES}-line `}code block${name} streamed in ${tokens.length.toLocaleString('en-US')} tokens`;
  reportStream(label, drafted, short.last, floor, {
    perToken: `a token's share of rendering the finished block once: ${(floor / tokens.length).toFixed(4)} ms; drawn whole at every token (before): ${whole.first.toFixed(3)} ms near its start, ${whole.last.toFixed(2)} ms at its end`,
    total: `drawn whole at every token (before): about ${Math.round(whole.total).toLocaleString('en-US')} ms (each ${WHOLE_EVERY}th token timed)`,
  });
}

/**
 * The rest of an answer after a list item's code block that was never closed (the model forgot the fence): the item
 * ends at the next line less indented (markdown-it), and the splitter knows it (markdown/list-items.ts). Before, the
 * splitter's block never ended and the rest of the answer was one chunk, drawn whole at every token.
 */
{
  const PARAGRAPHS = quick ? 100 : 300;
  const prose = Array.from({ length: PARAGRAPHS }, (_, i) => `Step ${i} checks that the ${i % 7}th input is **not empty**, then moves on to the next one in the list.`).join('\n\n');
  const text = `1. Install it:\n   \`\`\`bash\n   npm i x\n2. Then read on:\n\n${prose}\n`;
  const tokens = text.match(/[\s\S]{1,4}/g)!;
  const from = Math.ceil(text.indexOf('Step 0') / 4);
  let split: SplitState | undefined;
  const drawn = stream(tokens, from, (tail) => {
    split = splitGrowing(split, tail);
    markdownToHtml(split.chunks.at(-1) ?? '');
  });
  const once = performance.now();
  markdownToHtml(text);
  const floor = performance.now() - once;
  const label = `${PARAGRAPHS} paragraphs after a list item's unclosed code block, streamed in ${tokens.length.toLocaleString('en-US')} tokens`;
  // Its paragraphs are alike from the first: a token near their start is the same work as one at the end.
  reportStream(label, drawn, drawn.first, floor, { perToken: `chunks at the end: ${split!.chunks.length}` });
}

/** A drawer of the tail as the chat draws it: the last chunk of the text so far (split-blocks.ts), in parts. */
function tailDrawer<V>(draw: (prev: V | null, chunk: string) => V | null): () => (tail: string) => V | null {
  return () => {
    let split: SplitState | undefined;
    let view: V | null = null;
    return (tail: string) => {
      split = splitGrowing(split, tail);
      view = draw(view, split.chunks.at(-1) ?? '');
      return view;
    };
  };
}
const drawItems = tailDrawer<ListView>((prev, chunk) => drawList(prev, chunk, undefined, false, (html) => html));
const drawRows = tailDrawer<TableView>((prev, chunk) => drawTable(prev, chunk, undefined, false, (html) => html));

/**
 * A shape streamed in parts (a list item by item, a table row by row), `head` first (its tokens not timed), then
 * `body`. Floor per token: the same last 100 tokens under the same head, at the end of the body cut short: its last
 * 4,000 characters or so, from a line that starts with `mark` where the tokens fall as the long one's do. `drawnAsWhole`
 * checks the finished text's view against markdown-it's render.
 */
function streamInParts<V>(label: string, head: string, body: string, mark: string, drawer: () => (tail: string) => V | null, drawnAsWhole: (view: V | null, text: string) => boolean): void {
  const text = head + body;
  const tokens = text.match(/[\s\S]{1,4}/g)!;
  markdownToHtml(text);
  const draw = drawer();
  const from = Math.ceil(head.length / 4);
  const drawn = stream(tokens, from, draw);
  if (!drawnAsWhole(draw(text), text)) throw new Error(`${label} was not drawn in parts as markdown-it draws it`);
  let cut = text.indexOf(mark, text.length - 4000) + 1;
  while ((cut - head.length) % 4 !== 0) cut = text.indexOf(mark, cut) + 1;
  const shortTokens = (head + text.slice(cut)).match(/[\s\S]{1,4}/g)!;
  if (shortTokens.slice(-100).join('') !== tokens.slice(-100).join('')) throw new Error(`${label} was not cut short as meant`);
  const short = stream(shortTokens, from, drawer());
  const whole = stream(tokens, from, (tail) => void markdownToHtml(splitMarkdownBlocks(tail).at(-1) ?? ''), WHOLE_EVERY);
  const once = performance.now();
  markdownToHtml(text);
  const floor = performance.now() - once;
  reportStream(`${label} streamed in ${tokens.length.toLocaleString('en-US')} tokens`, drawn, short.last, floor, {
    perToken: `a token's share of rendering the finished text once: ${(floor / tokens.length).toFixed(4)} ms; drawn whole at every token (before): ${whole.first.toFixed(3)} ms near its start, ${whole.last.toFixed(2)} ms at its end`,
    total: `drawn whole at every token (before): about ${Math.round(whole.total).toLocaleString('en-US')} ms (each ${WHOLE_EVERY}th token timed)`,
  });
}

/**
 * A long list (markdown/list-view.ts): tips with a sub-point each, as models list them, tight and loose. A list is one
 * chunk, so it was drawn whole at every token; now each finished item is drawn once and only the last one at each
 * token. Floor per token: the same last 100 tokens at the end of a list of a few items (its last 4,000 characters or so).
 */
for (const loose of [false, true]) {
  const ITEMS = quick ? 100 : 300;
  const item = (i: number) => `- **Tip ${i}:** keep the \`${i % 7}th\` input short, and read https://example.com/tips/${i} first.\n  - why: step ${i} checks it\n`;
  const text = Array.from({ length: ITEMS }, (_, i) => item(i)).join(loose ? '\n' : '');
  streamInParts(`a ${ITEMS}-item ${loose ? 'loose ' : ''}list`, '', text, '\n- ', drawItems, (view, whole) => !!view && listViewHtml(view) === markdownToHtml(whole.trimEnd()));
}

/**
 * A list whose last item ends in a long list of its own (markdown/list-view.ts, Sublist): "2. The tips:" and its tips
 * under it; or in a long table. The item was drawn whole at every token, its sub-list with it (about 11 ms a token near
 * the end of 300); now its head once and the sub-list item by item (the table row by row). Floor per token: the same
 * last 100 tokens under the same head, at the end of a sub-list of a few items (its last 4,000 characters or so).
 */
for (const kind of ['list', 'table'] as const) {
  const ITEMS = quick ? 100 : 300;
  const head = kind === 'list' ? '1. Install it with `npm ci`.\n2. The tips:\n' : '1. Install it with `npm ci`.\n2. The steps:\n   | # | command | see |\n   |--:|---|---|\n';
  const line = (i: number) =>
    kind === 'list' ? `   - **Tip ${i}:** keep the \`${i % 7}th\` input short, and read https://example.com/tips/${i} first.\n` : `   | ${i} | \`make step-${i}\` | https://example.com/steps/${i} |\n`;
  const body = Array.from({ length: ITEMS }, (_, i) => line(i)).join('');
  const label = `a list item ending in a ${ITEMS}-${kind === 'list' ? 'item list' : 'row table'},`;
  streamInParts(label, head, body, kind === 'list' ? '\n   - ' : '\n   | ', drawItems, (view, text) => !!view?.items.at(-1)?.sublist?.[kind] && listViewHtml(view) === markdownToHtml(text.trimEnd()));
}

/**
 * A long table (markdown/table-view.ts): rows of a command, a value and a link, as models tabulate. A table is one
 * chunk, so it was drawn whole at every token; now its header and each finished row are drawn once. Floor per token:
 * the same last 100 tokens at the end of a table of a few rows (its last 4,000 characters or so, under its header).
 */
{
  const ROWS = quick ? 100 : 300;
  const head = '| # | command | value | see |\n|--:|---|--:|---|\n';
  const rows = Array.from({ length: ROWS }, (_, i) => `| ${i} | \`make step-${i}\` | ${(i * 7.25).toFixed(2)} | https://example.com/steps/${i} |\n`).join('');
  streamInParts(`a ${ROWS}-row table`, head, rows, '\n| ', drawRows, (view, text) => !!view && tableViewHtml(view) === markdownToHtml(text.trimEnd()));
}

/**
 * A long quote (markdown/growing-quote.ts): points quoted from a guide, each a paragraph. A quote is one chunk, so it
 * was drawn whole at every token; now its content is cut into chunks as an answer is, each finished one drawn once
 * and only the last at each token (as GrowingTail.tsx draws it: GrowingQuote). Floor per token: the same last 100
 * tokens at the end of a quote of a few points (its last 4,000 characters or so).
 */
{
  const POINTS = quick ? 100 : 300;
  const body = Array.from({ length: POINTS }, (_, i) => `> **Point ${i}:** keep the \`${i % 7}th\` input short, and read https://example.com/points/${i} first.\n>\n`).join('');
  const drawQuote = tailDrawer<{ draft: QuoteDraft; split?: SplitState; done: string[]; last: string }>((prev, chunk) => {
    const draft = growQuote(prev?.draft, chunk);
    if (!draft) return null;
    const split = splitGrowing(prev?.split, draft.content);
    const done = prev?.done ?? [];
    // Each finished chunk drawn once, as MarkdownChunk draws it from the cache after.
    while (done.length < split.chunks.length - 1) done.push(markdownToHtml(split.chunks[done.length]!, undefined, { nested: true }));
    const last = split.chunks.at(-1);
    return { draft, split, done, last: last === undefined ? '' : markdownToHtml(draft.content.slice(draft.content.lastIndexOf(last)), undefined, { nested: true }) };
  });
  streamInParts(`a ${POINTS}-paragraph quote`, '', body, '\n> **Point', drawQuote, (view, text) => !!view && `<blockquote dir="auto">\n${view.done.join('')}${view.last}</blockquote>\n` === markdownToHtml(text));
}
