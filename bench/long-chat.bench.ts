/**
 * Long chat (issue 8, item 4): a conversation of 2,000 turns, written through the real ConversationStore into
 * the data folder before serve mode starts, opened from the conversation list: time from the click to the paint
 * of its visible turns (goal < 200 ms) and the renderer's JS heap. Floor: a bare page that fetches the same
 * conversation (the same JSON the open call returns) and paints its last turns as plain text.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { conversationView } from '../src/main/chat/conversation-view';
import { ConversationStore } from '../src/main/db/conversation-store';
import { openDatabase } from '../src/main/db/open-database';
import type { Turn } from '../src/shared/turn';
import { withCleanup } from './lib/cleanup';
import { browser, requireBuild, serve, tempDir, waitInteractive } from './lib/firebrand-ui';
import { markdownTokens } from './lib/markdown-answer';
import { startPacedServer, BARE_PAGE } from './lib/paced-stream';
import { heapMb, timeOpen, waitInPage } from './lib/open-timer';
import { percentile, quick, report } from './lib/report';

const TURNS = 2_000;
const OPENS = quick ? 2 : 5;

/** Writes "Long chat" (TURNS turns, alternating user / markdown answers) and a two-turn "Short chat". */
function buildChats(dataDir: string): string {
  const db = openDatabase(join(dataDir, 'firebrand.db'));
  const store = new ConversationStore(db);
  const answers = Array.from({ length: 5 }, (_, i) => markdownTokens(150 + i * 60).join(''));
  const write = (id: string, title: string, count: number, at: number) => {
    store.createConversation(id, title, 'llama3.2:3b', at);
    let parentId: string | null = null;
    for (let t = 0; t < count; t++) {
      const role = t % 2 === 0 ? 'user' : 'assistant';
      const text = role === 'user' ? `Question ${t / 2}: how do I configure step ${t}?` : answers[t % answers.length]!;
      const turn: Turn = { id: `${id}-${t}`, conversationId: id, parentId, role, blocks: [{ type: 'text', text }], meta: {}, status: 'done', createdAt: at + t };
      if (role === 'assistant') turn.model = 'llama3.2:3b';
      store.appendTurn(turn, at + t);
      parentId = turn.id;
    }
  };
  db.transaction(() => {
    write('long', 'Long chat', TURNS, 1_000);
    write('short', 'Short chat', 2, 900_000);
  })();
  const json = JSON.stringify(conversationView(store, 'long'));
  db.close();
  return json;
}

const CHAT_BARE = `<!doctype html><meta charset="utf-8"><title>bare chat</title><button id="open">open</button><div id="chat"></div><script>
document.getElementById('open').onclick = async () => {
  const view = await (await fetch('/view.json')).json();
  const chat = document.getElementById('chat');
  for (const turn of view.turns.slice(-8)) {
    const div = document.createElement('div');
    div.className = 'turn';
    div.textContent = turn.blocks.map((b) => b.text || '').join('');
    chat.append(div);
  }
};
</script>`;

await withCleanup(async (cleanup) => {
  requireBuild();
  const dataDir = tempDir(cleanup, 'firebrand-bench-');
  const viewJson = buildChats(dataDir);
  const bareServer = createServer((req, res) => {
    if (req.url === '/view.json') return void res.writeHead(200, { 'content-type': 'application/json' }).end(viewJson);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(CHAT_BARE);
  });
  await new Promise<void>((r) => bareServer.listen(0, '127.0.0.1', () => r()));
  cleanup.add('bare server', () => new Promise((r) => bareServer.close(r)));
  const paced = await startPacedServer(BARE_PAGE);
  cleanup.add('paced server', () => paced.close());
  const b = await browser(cleanup);
  const s = await serve(cleanup, dataDir, paced.url);
  // Only waits polled by the page itself on this page, as on the floor page: Playwright's locators would inject
  // its scripts (about 1.1 MB of heap over two worlds) into the page whose heap is read, and not into the floor's.
  // bypassCSP: the app's CSP forbids eval, and the waits and the timer are script strings (as in openFirebrand).
  const app = await b.newPage({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
  await app.goto(s.url);
  await waitInteractive(app);
  const item = (title: string) => `[data-testid="conversation-item"][title="${title}"]`;
  await waitInPage(app, `document.querySelector('${item('Long chat')}') !== null`);

  const turnShown = (id: string) => `[data-testid="chat"] [data-testid="turn"][data-turn-id="${id}"]`;
  const opens: number[] = [];
  for (let i = 0; i < OPENS; i++) {
    opens.push(await timeOpen(app, item('Long chat'), turnShown(`long-${TURNS - 1}`)));
    await timeOpen(app, item('Short chat'), turnShown('short-1'));
  }
  await timeOpen(app, item('Long chat'), turnShown(`long-${TURNS - 1}`));
  // The heap with the whole chat loaded: the list has taken over from the first screenful (ChatView.tsx).
  await waitInPage(app, `document.querySelector('[data-testid="chat"] [data-testid="virtuoso-item-list"] [data-testid="turn"]') !== null && document.querySelector('[data-first-screen]') === null`);
  const shown = await app.evaluate<number>(`document.querySelectorAll('[data-testid="chat"] [data-testid="turn"]').length`);
  const heap = await heapMb(app);

  const bare = await b.newPage({ viewport: { width: 1280, height: 800 } });
  await bare.goto(`http://127.0.0.1:${(bareServer.address() as AddressInfo).port}/`);
  const floorOpens: number[] = [];
  for (let i = 0; i < OPENS; i++) {
    await bare.evaluate(`document.getElementById('chat').replaceChildren()`);
    floorOpens.push(await timeOpen(bare, '#open', '#chat .turn'));
  }
  const floorHeap = await heapMb(bare);

  const first = opens[0]!;
  const median = percentile([...opens].sort((x, y) => x - y), 50);
  const floorMedian = percentile([...floorOpens].sort((x, y) => x - y), 50);
  report({
    figure: `open a ${TURNS.toLocaleString('en-US')}-turn chat, click to first paint (median of ${OPENS})`,
    value: Number(median.toFixed(1)),
    unit: 'ms',
    floor: Number(floorMedian.toFixed(1)),
    ratio: Number((median / floorMedian).toFixed(2)),
    goal: '< 200 ms and <= 1.5x floor',
    met: median < 200 && first < 200 && median <= 1.5 * floorMedian,
    note: `opens ${opens.map((x) => x.toFixed(0)).join('/')} ms; first open ${first.toFixed(0)} ms; ${shown} turns mounted; ${(viewJson.length / 1e6).toFixed(1)} MB of turns`,
  });
  report({
    figure: `renderer JS heap with the ${TURNS.toLocaleString('en-US')}-turn chat open`,
    value: Number(heap.toFixed(1)),
    unit: 'MB',
    floor: Number(floorHeap.toFixed(1)),
    ratio: Number((heap / floorHeap).toFixed(2)),
    goal: '<= 3x floor',
    met: heap <= 3 * floorHeap,
  });
});
