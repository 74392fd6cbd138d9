/**
 * Issue 9, security end to end: the built renderer in serve mode, in Chromium, against the replay server. An
 * XSS corpus (test/fixtures/faults/xss-corpus.ts) placed in the answer, the native reasoning, the user's text,
 * a tool call and its result, an error message, an attachment name and the conversation title renders inert:
 * no dialog, `window.__pwned` never set, no script/on* attribute/javascript: URL in the DOM, no request
 * from the page to anything but the serve origin, and no hit on the trap server the payloads point at.
 * Also: the CSP in the served header and in the built index.html, and serve mode's 127.0.0.1 default.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHORT_PAYLOADS, xssCorpus } from '../fixtures/faults/xss-corpus';
import { TAGS_BODY } from '../replay-server/ollama-wire';
import type { ReplayRoute } from '../replay-server/replay-server';
import { ollamaLines, send, startUi, stopUi, waitIdle, type UiSession } from './helpers/ui-session';

let s: UiSession | undefined;
let trap: Server;
let trapUrl = '';
const trapHits: string[] = [];
const dialogs: string[] = [];
const pageRequests: string[] = [];
const sockets: string[] = [];

const chat = (body: string, status = 200): ReplayRoute => ({ method: 'POST', path: '/api/chat', status, body, chunk: 'lines', headers: { 'content-type': 'application/x-ndjson' } });

beforeAll(async () => {
  trap = createServer((req, res) => {
    trapHits.push(req.url ?? '');
    res.end('trap');
  });
  await new Promise<void>((r) => trap.listen(0, '127.0.0.1', () => r()));
  trapUrl = `http://127.0.0.1:${(trap.address() as AddressInfo).port}`;
  const corpus = xssCorpus(trapUrl);
  // Answers in the order the app asks: the first answer, its title, a tool call, the answer after the tool's
  // (error) result, then an HTTP error whose body is markup.
  const answers = [
    chat(ollamaLines([...corpus.map((p) => ({ thinking: `${p}\n\n` })), ...corpus.map((p) => ({ content: `${p}\n\n` }))])),
    chat(ollamaLines([{ tool_calls: [{ function: { name: SHORT_PAYLOADS.toolName, arguments: { q: corpus[1], html: corpus[0] } } }] }])),
    chat(ollamaLines([{ content: `After the tool: ${corpus[3] ?? ''}` }])),
    chat(`<html><body><img src=x onerror="window.__pwned=1"><script>alert(1)</script><a href="javascript:alert(1)">x</a></body></html>`, 502),
  ];
  const base: ReplayRoute[] = [
    { path: '/api/tags', body: TAGS_BODY },
    { path: '/api/version', body: '{"version":"0.12.6"}' },
    { method: 'POST', path: '/api/show', body: '{"capabilities":["completion","tools","thinking"]}' },
  ];
  s = await startUi([...base, ...answers.slice(0, 1)]);
  let next = 0;
  s.replay.setOnRequest((req) => {
    if (req.path !== '/api/chat' || !s) return;
    const route = req.body.includes('Write a title') ? chat(ollamaLines([{ content: SHORT_PAYLOADS.title }])) : answers[Math.min(next++, answers.length - 1)];
    if (route) s.replay.setRoutes([...base, route]);
  });
  const { page } = s;
  page.on('dialog', (d) => {
    dialogs.push(`${d.type()}: ${d.message()}`);
    void d.dismiss();
  });
  page.on('request', (r) => pageRequests.push(r.url()));
  page.on('websocket', (ws) => sockets.push(ws.url()));
  // Start over from a clean load, now that the listeners see everything.
  await page.reload();
  await page.locator('[role="option"][data-value="llama3.2:3b"]').waitFor({ state: 'attached' });
});

afterAll(async () => {
  await stopUi(s);
  await new Promise<void>((r) => trap.close(() => r()));
});

/** Everything in the live DOM that could run or load: found elements and attributes, as strings. */
function activeContent(): Promise<string[]> {
  if (!s) throw new Error('no session');
  return s.page.evaluate(() => {
    const found: string[] = [];
    // The places untrusted text is shown: the turns (answers, reasoning, cards, errors, attachments) and the
    // conversation list (titles). The app's own chrome may legitimately use forms or icons.
    const roots = [...document.querySelectorAll('[data-testid="chat"], [data-testid="conversation-list"]')];
    if (roots.length < 2) return ['(turns or conversation list not found)'];
    const all = roots.flatMap((r) => [...r.querySelectorAll('*')]);
    for (const el of all) {
      if (['script', 'iframe', 'object', 'embed', 'style', 'link', 'meta', 'base', 'form', 'img', 'video', 'audio', 'source'].includes(el.tagName.toLowerCase())) {
        found.push(`<${el.tagName.toLowerCase()}>`);
      }
    }
    for (const el of all) {
      for (const attr of el.attributes) {
        const v = attr.value.trim().toLowerCase();
        if (attr.name.startsWith('on')) found.push(`${el.tagName.toLowerCase()}[${attr.name}]`);
        if (['href', 'src', 'action', 'formaction', 'xlink:href', 'srcdoc'].includes(attr.name) && !/^(https?:|#|blob:)/.test(v) && v !== '') found.push(`${el.tagName.toLowerCase()}[${attr.name}=${v.slice(0, 40)}]`);
      }
    }
    return found;
  });
}

/**
 * Resolves once the page has rendered what is pending and gone idle (two frames, then an idle callback): by then
 * anything the content could start (a load, a handler, a dialog) has been started. State, not a fixed sleep.
 */
async function pageSettled(): Promise<void> {
  if (!s) throw new Error('no session');
  await s.page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => requestIdleCallback(() => done())))));
}

/**
 * Waits until the virtualized list has rendered turns over every part of the viewport that holds turns (after a
 * scroll it renders them a frame or more later): what is checked is then what a user scrolled there would see.
 */
async function turnsRenderedInView(): Promise<void> {
  if (!s) throw new Error('no session');
  await s.page.waitForFunction(() => {
    const scroller = document.querySelector('[data-testid="chat"] [data-virtuoso-scroller]');
    const list = scroller?.querySelector('[data-testid="virtuoso-item-list"]');
    if (!scroller || !list) return false;
    const view = scroller.getBoundingClientRect();
    const span = list.getBoundingClientRect();
    const top = Math.max(view.top, span.top);
    const bottom = Math.min(view.bottom, span.bottom);
    const items = [...list.querySelectorAll(':scope > [data-index]')].map((el) => el.getBoundingClientRect()).sort((a, b) => a.top - b.top);
    let covered = top;
    for (const r of items) {
      if (r.top > covered + 1) break;
      covered = Math.max(covered, r.bottom);
    }
    return items.length > 0 && (items[0]?.top ?? Infinity) <= top + 1 && covered >= bottom - 1;
  });
}

/** Scrolls the turn list from top to bottom, collecting active content and the text of every turn shown. */
async function scanChat(): Promise<{ found: string[]; text: string; reasoningRuns: number }> {
  if (!s) throw new Error('no session');
  const { page } = s;
  const scroller = page.locator('[data-testid="chat"] .turn-list').first();
  const found = new Set<string>();
  let text = '';
  let reasoningRuns = 0;
  // Away from the end as a reader leaves it (a scroll the reader did not make is undone while the list follows).
  await scroller.hover();
  await page.mouse.wheel(0, -1_000_000);
  for (let y = 0, i = 0; i < 400; i++) {
    await scroller.evaluate((el, top) => (el.scrollTop = top), y);
    await turnsRenderedInView();
    await pageSettled();
    for (const f of await activeContent()) found.add(f);
    text += (await page.getByTestId('chat').textContent()) ?? '';
    reasoningRuns += await page.locator('[data-run="reasoning"]').count();
    const { height, view } = await scroller.evaluate((el) => ({ height: el.scrollHeight, view: el.clientHeight }));
    if (y >= height - view) break;
    y += Math.max(100, Math.floor(view / 2));
  }
  return { found: [...found], text, reasoningRuns };
}

describe('security, end to end', () => {
  it('serve mode binds 127.0.0.1 by default and serves the strict CSP; the built index.html carries it too', async () => {
    if (!s) throw new Error('no session');
    expect(new URL(s.serve.url).hostname).toBe('127.0.0.1');
    const res = await fetch(s.serve.url);
    const header = res.headers.get('content-security-policy') ?? '';
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/i.exec(readFileSync(resolve('out/renderer/index.html'), 'utf8'))?.[1] ?? '';
    for (const csp of [header, meta]) {
      const scriptSrc = csp.split(';').map((d) => d.trim()).find((d) => d.startsWith('script-src')) ?? '';
      expect(scriptSrc, csp).toBe("script-src 'self'");
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("base-uri 'none'");
      expect(csp).not.toContain('unsafe-eval');
    }
    expect(header).toContain("frame-ancestors 'none'");
    // Without the token, or from a foreign origin, nothing is served and no socket opens (unit-tested in depth
    // in test/main/serve; here against the real process).
    expect((await fetch(`${s.serve.origin}/`)).status).toBe(401);
    expect((await fetch(`${s.serve.origin}/ipc`, { headers: { origin: 'http://evil.example' } })).status).toBeGreaterThanOrEqual(400);
  });

  it('loads nothing its own CSP refuses: no stylesheet inlines a font as a data: URL (font-src is self only)', () => {
    // The build inlined KaTeX_Size3 (small enough) into the math stylesheet: the browser refused it with an error
    // in the console and fell back to the .woff. Fonts now always ship as files (electron.vite.config.ts).
    const dir = resolve('out/renderer/assets');
    const sheets = readdirSync(dir).filter((f) => f.endsWith('.css'));
    expect(sheets.length).toBeGreaterThan(0);
    for (const sheet of sheets) expect(readFileSync(resolve(dir, sheet), 'utf8'), sheet).not.toMatch(/url\(["']?data:(font|application\/font|application\/x-font)/);
  });

  it('renders the corpus inert in answers, reasoning, user text, tool cards, errors, file names and titles', async () => {
    if (!s) throw new Error('no session');
    const { page } = s;
    await page.getByTestId('attach-input').setInputFiles({ name: SHORT_PAYLOADS.fileName, mimeType: 'text/plain', buffer: Buffer.from('notes') });
    await page.getByTestId('pending-attachments').getByTestId('attachment').waitFor();
    await send(page, SHORT_PAYLOADS.userText);
    await waitIdle(page);
    await expect.poll(() => page.getByTestId('conversation-item').first().textContent()).toContain('onerror');

    // The list is virtualized: the checks below scroll through it, so every turn is in the DOM at some point.
    await send(page, 'Use a tool');
    await page.waitForFunction(() => document.body.textContent?.includes('After the tool'));
    await waitIdle(page);
    expect(await page.locator('[data-card="tool-call"]').first().textContent()).toContain('<svg onload=alert(1)>');

    await send(page, 'And an error');
    await page.locator('[data-testid="turn"][data-status="error"]').first().waitFor();

    // Let anything that would load or run start, then look at every turn.
    await pageSettled();
    const scan = await scanChat();
    // The payloads are on screen as text or sanitized markdown: proof they were rendered, not dropped.
    for (const shown of ['<script>window.__pwned=1</script>', 'onerror', 'JaVaScRiPt', SHORT_PAYLOADS.toolName, 'There is no tool named', 'After the tool', '502', SHORT_PAYLOADS.fileName]) {
      expect(scan.text, shown).toContain(shown);
    }
    expect(scan.reasoningRuns).toBeGreaterThan(0);
    expect(scan.found).toEqual([]);
    expect(await activeContent()).toEqual([]);
    expect(dialogs).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(trapHits).toEqual([]);
    const origin = s.serve.origin;
    expect(pageRequests.filter((u) => !u.startsWith(`${origin}/`) && !u.startsWith('data:') && !u.startsWith('blob:'))).toEqual([]);
    expect(sockets.every((u) => u.startsWith(origin.replace('http', 'ws')))).toBe(true);
    console.log(
      `xss corpus: ${xssCorpus(trapUrl).length} payloads x (answer + reasoning) + user text, tool name/args/result, HTTP error body, file name, title; ` +
        `${pageRequests.length} page requests (all to the serve origin), trap hits ${trapHits.length}, dialogs ${dialogs.length}`,
    );
  });

  it('control: the DOM check sees markup injected past the sanitizer, and the CSP still stops it running or loading', async () => {
    if (!s) throw new Error('no session');
    const { page } = s;
    const trap = trapUrl;
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { __violations: string[] }).__violations = seen;
      document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.effectiveDirective} ${e.blockedURI}`));
    });
    await page.evaluate((t) => {
      const host = document.querySelector('[data-testid="chat"] [data-testid="turn"]');
      host?.insertAdjacentHTML('beforeend', `<img src="${t}/control" onerror="window.__pwned=1"><a href="javascript:window.__pwned=1">x</a>`);
    }, trap);
    expect(await activeContent()).toEqual(expect.arrayContaining(['<img>', 'img[onerror]', 'a[href=javascript:window.__pwned=1]']));
    // Wait for the browser to report what the CSP stopped (state, where a fixed pause used to be): the inline
    // onerror handler and the image's load from the trap.
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { __violations: string[] }).__violations))
      .toEqual(expect.arrayContaining([`img-src ${trap}/control`, expect.stringMatching(/^script-src-attr /)]));
    // Second wall: img-src has no foreign origins and script-src no 'unsafe-inline'.
    expect(trapHits).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
  });

  it('keeps the math of an answer inside it: a formula cannot paint over the approval card or cover its buttons', async () => {
    if (!s) throw new Error('no session');
    const { page, replay } = s;
    // KaTeX lays out what TeX allows: \smash[b] hides a lowered box's depth from the layout, so without a clip a
    // formula paints (and takes clicks) over whatever follows it: here a slab over the fetch_url approval card.
    const slab = String.raw`$\smash[b]{\raisebox{-30em}{\colorbox{red}{\rule{30em}{30em}}}}$`;
    const step = ollamaLines([{ content: `Checking. ${slab}` }, { tool_calls: [{ function: { name: 'fetch_url', arguments: { url: 'https://example.com/' } } }] }]);
    const base: ReplayRoute[] = [
      { path: '/api/tags', body: TAGS_BODY },
      { path: '/api/version', body: '{"version":"0.12.6"}' },
      { method: 'POST', path: '/api/show', body: '{"capabilities":["completion","tools"]}' },
    ];
    const plan = [chat(step)];
    replay.setRoutes([...base, plan[0]!]);
    replay.setOnRequest((req) => {
      if (req.path !== '/api/chat') return;
      const title = req.body.includes('Write a title');
      replay.setRoutes([...base, title ? chat(ollamaLines([{ content: 'Math' }])) : (plan.shift() ?? chat(ollamaLines([{ content: 'Done.' }])))]);
    });
    await page.getByTestId('new-chat').click();
    await send(page, 'Fetch example.com');
    const card = page.locator('[data-card="tool-approval"]');
    const allow = card.getByTestId('tool-allow-once');
    await allow.waitFor();
    const answer = page.locator('[data-testid="turn"][data-role="assistant"] [data-run="answer"]').last();
    await answer.locator('.katex .colorbox').waitFor();
    await pageSettled();
    // The formula's boxes are laid out over the card (what the test is about): only the clip keeps them off it.
    const box = await answer.locator('.katex .colorbox').first().boundingBox();
    const cardBox = await card.boundingBox();
    if (!box || !cardBox) throw new Error('no layout');
    expect(box.y + box.height).toBeGreaterThan(cardBox.y + cardBox.height);
    // What a click (and the eye) meets at the card's words and buttons is the card, not the answer's math.
    const hits = await page.evaluate(() => {
      const card = document.querySelector('[data-card="tool-approval"]');
      const targets = [...(card?.querySelectorAll('.system-text, button') ?? [])];
      return targets.map((el) => {
        const r = el.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return `${el.textContent?.slice(0, 20) ?? ''}: ${hit && el.contains(hit) ? 'card' : hit?.closest('.katex') ? 'math' : (hit?.className.toString() ?? 'nothing')}`;
      });
    });
    expect(hits.length).toBeGreaterThan(2);
    expect(hits.filter((h) => !h.endsWith(': card'))).toEqual([]);
    await card.getByTestId('tool-deny').click();
    await waitIdle(page);
    replay.setOnRequest(undefined);
  });
});
