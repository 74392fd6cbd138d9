/**
 * Attachments audit #2: the "too long" reason and a PDF's page row. With gemma3:12b's estimate ratio (0.83 here)
 * the reason said "long.txt needs about 41K tokens; 11K are left in the 4K-token window. Choose pages that fit",
 * a text file was told to choose pages, the 43-token PDF beside it said "Not even page 1 fits (0 tokens left)",
 * and a 2-page PDF's page field showed "1-3".
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { RoomPlan } from '../../src/shared/context-ipc';
import type { AttachmentInspection } from '../../src/shared/ipc';
import type { AttachmentBlock } from '../../src/shared/turn';
import { PageRangeRow } from '../../src/renderer/components/composer/PageRange';
import { roomsFor, tooLongReason, type WindowState } from '../../src/renderer/components/composer/window-room';
import { formatTokens } from '../../src/renderer/format';

const block = (name: string, kind: AttachmentBlock['kind'], id: string): AttachmentBlock => ({ type: 'attachment', id: id.repeat(64), kind, name, mime: kind === 'document' ? 'application/pdf' : 'text/plain', size: 1 });
const pdfInspection = (pageChars: number[]): AttachmentInspection => ({
  tokens: Math.ceil(pageChars.reduce((a, b) => a + b, 0) / 4),
  tokensSource: 'estimate',
  pageCount: pageChars.length,
  pageChars,
  textChars: null,
  pages: null,
  error: null,
  image: null,
});
const textInspection = (tokens: number): AttachmentInspection => ({ ...pdfInspection([]), tokens, pageCount: null, pageChars: null, textChars: tokens * 4 });

const report = block('report.pdf', 'document', 'a');
const long = block('long.txt', 'text', 'b');
const RATIO = 0.83;
const CHAT = 120; // the conversation and the typed words, in the chip's scale
/** The meter's estimate as the composer makes it: everything in the rule's tokens, scaled by the model's ratio. */
const stateWith = (items: WindowState['items']): WindowState => ({
  window: 4096,
  ratio: RATIO,
  items,
  estimate: Math.ceil((CHAT + items.reduce((a, i) => a + i.tokens, 0)) * RATIO),
});
const inspections = new Map([
  [report, pdfInspection([90, 80])],
  [long, textInspection(41_000)],
]);
const words = { modelName: 'gemma3:12b', empty: false, inspectionOf: (b: AttachmentBlock) => inspections.get(b) };
/** In a chat, where Make room… is beside the words (main's plan not come yet). */
const chatWords = { ...words, chat: { plan: null } };

describe('the too-long reason (attachments audit #2)', () => {
  it('names the large text file with numbers on the window’s scale, and offers no pages for it', () => {
    const state = stateWith([
      { block: report, tokens: 43 },
      { block: long, tokens: 41_000 },
    ]);
    const reason = tooLongReason(state, chatWords) ?? '';
    const needs = Math.ceil(41_000 * RATIO);
    const left = 4096 - (state.estimate - needs);
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(4096);
    expect(reason).toBe(
      `long.txt needs about ${formatTokens(needs)} tokens; ${formatTokens(left)} are left in the 4K-token window. Remove it or attach a shorter part of it, or make room.`,
    );
    expect(reason).not.toContain('pages');
  });

  it('offers pages for a PDF that has some that fit, and says so when not even its first page does', () => {
    const big = block('minutes.pdf', 'document', 'c');
    const own = new Map([[big, pdfInspection(Array.from({ length: 30 }, () => 2000))]]);
    const state = stateWith([{ block: big, tokens: 15_000 }]);
    expect(tooLongReason(state, { ...chatWords, inspectionOf: (b) => own.get(b) })).toMatch(/^minutes\.pdf needs about 12K tokens; .* Choose pages that fit \(under its chip\), or make room\.$/);
    const dense = new Map([[big, pdfInspection([20_000, 40_000])]]);
    expect(tooLongReason(state, { ...chatWords, inspectionOf: (b) => dense.get(b) })).toMatch(/Not even its first page fits: make room, or remove it\.$/);
  });

  // Wording: a message with nothing attached was told "Make room, or remove attachments."
  it('speaks of removing attachments only where some are attached and counted; otherwise of shortening the message', () => {
    const over = (items: WindowState['items']): WindowState => ({ window: 4096, ratio: 1, items, estimate: 6144 + items.reduce((a, i) => a + i.tokens, 0) });
    expect(tooLongReason(over([]), chatWords)).toBe('Too long for gemma3:12b: about 6K tokens, its window holds 4K. Make room, or shorten the message.');
    // Not yet counted (0 tokens): removing it would not make the message fit.
    expect(tooLongReason(over([{ block: report, tokens: 0 }]), chatWords)).toMatch(/Make room, or shorten the message\.$/);
    expect(tooLongReason(over([{ block: report, tokens: 43 }]), chatWords)).toMatch(/^Too long for gemma3:12b: about 6K tokens, its window holds 4K\. Make room, or remove attachments\.$/);
    const photo = block('cat.png', 'image', 'd');
    expect(tooLongReason(over([{ block: photo, tokens: 800 }]), chatWords)).toMatch(/Make room, or remove attachments\.$/);
    // Nothing typed and nothing attached: it is the conversation that is too long.
    expect(tooLongReason(over([]), { ...chatWords, empty: true })).toMatch(/Make room to go on\.$/);
  });

  // Wording: a short message after a long chat was told "Make room, or shorten the message.", which could not help.
  describe('where the room is short: the chat before the message, or the message', () => {
    /** A 4K window, the chat before the message taking `chat` tokens (ratio 1), the message `message`. */
    const over = (chat: number, message: number, items: WindowState['items'] = []): WindowState => ({
      window: 4096, ratio: 1, items, message, estimate: chat + message + items.reduce((a, i) => a + i.tokens, 0),
    });
    const plan = (p: Partial<RoomPlan>): RoomPlan => ({ cut: null, newChat: false, larger: { kind: 'none', reason: 'x' }, ...p }) as RoomPlan;
    const inChat = (p: RoomPlan | null) => ({ ...words, chat: { plan: p } });

    it('advises making room in the chat where the message would fit on its own, with the ways Make room… offers', () => {
      const head = 'Too long for gemma3:12b: about 4,200 tokens, its window holds 4,096. Your message would fit on its own: the chat so far fills the window.';
      expect(tooLongReason(over(4000, 200), inChat(null))).toBe(`${head} Make room in the chat (Make room…).`);
      const all = plan({ cut: {} as RoomPlan['cut'], newChat: true, larger: { kind: 'offer' } as RoomPlan['larger'] });
      expect(tooLongReason(over(4000, 200), inChat(all))).toBe(`${head} Make room… offers to summarize or leave out older messages, continue in a new chat, or use a larger window.`);
      expect(tooLongReason(over(4000, 200), inChat(plan({ newChat: true })))).toBe(`${head} Make room… offers to continue in a new chat.`);
      expect(tooLongReason(over(4000, 200), inChat(plan({ cut: {} as RoomPlan['cut'], newChat: true })))).toMatch(/ Make room… offers to summarize or leave out older messages, or continue in a new chat\.$/);
      // An image (never named as the file to remove) that is a small part of it: the chat still is what fills the window.
      const photo = block('cat.png', 'image', 'd');
      expect(tooLongReason(over(3500, 50, [{ block: photo, tokens: 800 }]), inChat(null))).toMatch(/the chat so far fills the window\. Make room in the chat \(Make room…\)\.$/);
    });

    it('keeps "shorten the message" where the message is most of it, or does not fit alone', () => {
      expect(tooLongReason(over(2000, 2500), inChat(null))).toMatch(/\. Make room, or shorten the message\.$/);
      expect(tooLongReason(over(100, 5000), inChat(null))).toMatch(/\. Make room, or shorten the message\.$/);
    });

    it('keeps "remove attachments" where they are most of it', () => {
      const photo = block('cat.png', 'image', 'd');
      expect(tooLongReason(over(1500, 50, [{ block: photo, tokens: 3000 }]), inChat(null))).toMatch(/\. Make room, or remove attachments\.$/);
      // The words are most of the draft: the attachment is not what to remove.
      expect(tooLongReason(over(1000, 3000, [{ block: photo, tokens: 300 }]), inChat(null))).toMatch(/\. Make room, or shorten the message\.$/);
    });

    it('says nothing of the chat in a new chat, where Make room… is not offered', () => {
      expect(tooLongReason(over(4000, 200), words)).toMatch(/holds 4,096\. Shorten the message\.$/);
    });

    // At 390 px the reason ran to three lines beside the meter (which shows both numbers) and the picker (the model):
    // a phone is told by how much it is over and what to do, with Make room… beside it.
    it('says by how much and what to do in a phone’s words', () => {
      const phone = (p: RoomPlan | null) => ({ ...inChat(p), short: true });
      expect(tooLongReason(over(2000, 2500), phone(null))).toBe('Too long by about 405 tokens. Make room, or shorten the message.');
      expect(tooLongReason(over(4000, 200), phone(plan({ newChat: true })))).toBe('Too long by about 105 tokens. The chat fills the window: make room in it.');
      // At the window itself one token is needed for the answer; over a thousand, as the meter writes tokens.
      expect(tooLongReason(over(2000, 2096), phone(null))).toBe('Too long by about 1 token. Make room, or shorten the message.');
      expect(tooLongReason(over(100, 7000), phone(null))).toBe('Too long by about 2.9K tokens. Make room, or shorten the message.');
      expect(tooLongReason(over(5000, 0), { ...phone(null), empty: true })).toBe('This chat is over its window by about 905 tokens. Make room to go on.');
    });
  });

  // A new chat has no Make room… (no chat yet): "Make room, or shorten the message." named a button that was not there.
  // What can be done there is the draft, and the larger window offered beside the words (LargerWindowOffer).
  describe('in a new chat, where there is no Make room…', () => {
    const over = (message: number, items: WindowState['items'] = []): WindowState => ({ window: 4096, ratio: 1, items, message, estimate: 300 + message + items.reduce((a, i) => a + i.tokens, 0) });
    const offer = { kind: 'offer', engine: 'ollama', window: 6144, current: 4096, trained: 32_768, memoryBytes: null, usableBytes: null, fits: 'unknown' } as const;
    const alias = { kind: 'none', reason: 'The alias sets this window (4,096 tokens); change it in Models.', action: 'change the alias’s window in Models' } as const;
    const unknown = { kind: 'none', reason: 'No larger window could be worked out: Ollama has no details of gemma3:12b.' } as const;

    it('names only the message, the attachments and the larger window offered', () => {
      const head = 'Too long for gemma3:12b: about 5.2K tokens, its window holds 4K.';
      expect(tooLongReason(over(5000), words)).toBe(`${head} Shorten the message.`);
      expect(tooLongReason(over(5000), { ...words, larger: offer })).toBe(`${head} Shorten the message, or use a larger window.`);
      // Where none can be had, its reason is beside the words at this width (and names Models for an alias).
      expect(tooLongReason(over(5000), { ...words, larger: alias })).toBe(`${head} Shorten the message.`);
      const photo = block('cat.png', 'image', 'd');
      expect(tooLongReason(over(100, [{ block: photo, tokens: 5000 }]), { ...words, larger: offer })).toMatch(/\. Remove attachments, or use a larger window\.$/);
      expect(tooLongReason(over(100, [{ block: photo, tokens: 5000 }]), words)).toMatch(/\. Remove attachments\.$/);
    });

    it('does not tell a file that does not fit to make room', () => {
      const state = stateWith([{ block: long, tokens: 41_000 }]);
      expect(tooLongReason(state, words)).toMatch(/ Remove it or attach a shorter part of it\.$/);
      const big = block('minutes.pdf', 'document', 'c');
      const dense = new Map([[big, pdfInspection([20_000, 40_000])]]);
      expect(tooLongReason(stateWith([{ block: big, tokens: 15_000 }]), { ...words, inspectionOf: (b) => dense.get(b) })).toMatch(/ Not even its first page fits: remove it\.$/);
    });

    // At 390 px the larger window's reason took two lines under the reason's two: a phone is told where the window is
    // changed, where that is what to do, and an offered window's button finishes the sentence on the line under it.
    it('says in a phone’s words where the window is changed, or leads to the offered one', () => {
      const phone = { ...words, short: true };
      expect(tooLongReason(over(5000), { ...phone, larger: unknown })).toBe('Too long by about 1.2K tokens. Shorten the message.');
      expect(tooLongReason(over(5000), { ...phone, larger: alias })).toBe('Too long by about 1.2K tokens. Shorten the message, or change the alias’s window in Models.');
      expect(tooLongReason(over(5000), { ...phone, larger: offer })).toBe('Too long by about 1.2K tokens. Shorten it, or:');
      expect(tooLongReason(over(5000), { ...phone, larger: null })).toBe('Too long by about 1.2K tokens. Shorten the message.');
    });
  });

  // At 390 px beside Make room… (about 34 letters a line) a file's reason took four lines, the tools' three or four.
  describe('a file or the tools, in a phone’s words', () => {
    const phone = { ...chatWords, short: true };

    it('says how much the file is over and what to do with it', () => {
      const state = stateWith([{ block: long, tokens: 41_000 }]);
      const over = formatTokens(state.estimate - 4096 + 1);
      expect(tooLongReason(state, phone)).toBe(`long.txt is ${over} tokens over: remove it or attach part of it.`);
      const big = block('minutes.pdf', 'document', 'c');
      const pages = new Map([[big, pdfInspection(Array.from({ length: 30 }, () => 2000))]]);
      expect(tooLongReason(stateWith([{ block: big, tokens: 15_000 }]), { ...phone, inspectionOf: (b) => pages.get(b) })).toMatch(/^minutes\.pdf is [\d.]+K tokens over: choose pages that fit, under its chip\.$/);
    });

    it('says how much the tools take and where to turn them off', () => {
      const state: WindowState = { window: 4096, ratio: 1, items: [], message: 200, tools: 3100, estimate: 4200 };
      expect(tooLongReason(state, phone)).toBe('Too long by about 105 tokens; tools take 3,100. Turn some off in Settings → Tools.');
    });
  });

  // The chat's tools (MCP servers' tool descriptions, sent with every message) were never named: a chat they filled
  // was told "Make room in the chat", and cutting the chat could not make room the tools took.
  describe("where the chat's tools are what leave no room", () => {
    /** A 4K window: the tools' definitions `tools`, the rest of the chat `chat`, the message `message` (ratio 1). */
    const withTools = (tools: number, chat: number, message: number, items: WindowState['items'] = []): WindowState => ({
      window: 4096, ratio: 1, items, message, tools, estimate: tools + chat + message + items.reduce((a, i) => a + i.tokens, 0),
    });
    const inChat = { ...words, chat: { plan: null } };
    const TOOLS = ' The tools this chat offers take about 3,100 tokens of the window: turn some off in Settings → Tools, or choose a larger window.';

    it('names the tools and the ways out where they are a large part and the chat and the message fit without them', () => {
      expect(tooLongReason(withTools(3100, 900, 200), inChat)).toBe(`Too long for gemma3:12b: about 4,200 tokens, its window holds 4,096.${TOOLS}`);
      // In a new chat, and of a chat whose draft is empty, the same.
      expect(tooLongReason(withTools(3100, 900, 200), words)).toContain(TOOLS);
      expect(tooLongReason(withTools(3100, 1100, 0), { ...inChat, empty: true })).toBe(`This conversation is longer than gemma3:12b's window: about 4,200 tokens, its window holds 4,096.${TOOLS}`);
      // Before the file the rest would fit without: the tools are what leave it no room.
      expect(tooLongReason(withTools(3100, 100, 50, [{ block: long, tokens: 900 }]), { ...inChat, inspectionOf: () => textInspection(900) })).toMatch(/The tools this chat offers take about 3,100 tokens/);
    });

    it('says what it said where the chat or the message would not fit even without them, or they are a small part', () => {
      // A long chat a few tools took the last of the room in: making room in the chat is the way on.
      expect(tooLongReason(withTools(260, 3800, 200), inChat)).toMatch(/the chat so far fills the window\. Make room in the chat \(Make room…\)\.$/);
      expect(tooLongReason(withTools(300, 3900, 200), inChat)).toMatch(/Your message would fit on its own: the chat so far fills the window\. Make room in the chat \(Make room…\)\.$/);
      expect(tooLongReason(withTools(300, 200, 3900), inChat)).toMatch(/\. Make room, or shorten the message\.$/);
      expect(tooLongReason(withTools(300, 200, 3900), inChat)).not.toContain('tools');
    });
  });

  it('says nothing while the draft fits', () => {
    expect(tooLongReason(stateWith([{ block: report, tokens: 43 }]), words)).toBeNull();
  });
});

describe("a PDF's page row (attachments audit #2)", () => {
  it('leaves a small PDF alone beside a huge text file: the text file is charged after it', () => {
    const state = stateWith([
      { block: long, tokens: 41_000 },
      { block: report, tokens: 43 },
    ]);
    const room = roomsFor(state).get(report);
    expect(room?.left).toBeGreaterThan(3000);
    const html = renderToStaticMarkup(<PageRangeRow block={report} inspection={pdfInspection([90, 80])} room={room ?? { left: 0, forPages: 0 }} onPages={() => {}} />);
    expect(html).toBe('');
  });

  it("counts what is left on the chip's scale, which the chip's tokens are compared with", () => {
    const big = block('minutes.pdf', 'document', 'c');
    const state = stateWith([{ block: big, tokens: 15_000 }]);
    const room = roomsFor(state).get(big);
    // What the window has left in the model's tokens, at 0.83 of them per estimated token: more of the chip's.
    expect(room?.left).toBe(Math.floor((4096 - Math.ceil(CHAT * RATIO)) / RATIO));
    const html = renderToStaticMarkup(<PageRangeRow block={big} inspection={pdfInspection(Array.from({ length: 30 }, () => 2000))} room={room ?? { left: 0, forPages: 0 }} onPages={() => {}} />);
    expect(html).toContain(`Too long for the window (${formatTokens(room?.left ?? 0)} tokens left)`);
  });

  // The context hunt: a PDF llama-server counted (its chip in the model's tokens) was compared with what is left in
  // the rule's scale, and at a ratio of 2 said not to fit half a window that held it.
  it('compares a PDF the server counted with what is left in the model’s tokens, and says that number', () => {
    const exact = (tokens: number): AttachmentInspection => ({ ...pdfInspection([4000, 4000]), tokens, tokensSource: 'exact' });
    const room = { left: 2000, forPages: 1500, inWindow: 4000 };
    expect(renderToStaticMarkup(<PageRangeRow block={report} inspection={exact(3000)} room={room} onPages={() => {}} />)).toBe('');
    const over = renderToStaticMarkup(<PageRangeRow block={report} inspection={exact(5000)} room={room} onPages={() => {}} />);
    expect(over).toContain(`Too long for the window (${formatTokens(4000)} tokens left)`);
  });

  it("shows a page example the document has: 1-2 for a 2-page PDF, 1 for a single page", () => {
    const two = renderToStaticMarkup(<PageRangeRow block={report} inspection={pdfInspection([30_000, 30_000])} room={{ left: 100, forPages: 0 }} onPages={() => {}} />);
    expect(two).toContain('Not even page 1 fits');
    expect(two).toContain('placeholder="1-2"');
    expect(two).not.toContain('1-3');
    const one = renderToStaticMarkup(<PageRangeRow block={report} inspection={pdfInspection([30_000])} room={{ left: 100, forPages: 0 }} onPages={() => {}} />);
    expect(one).toContain('placeholder="1"');
  });
});
