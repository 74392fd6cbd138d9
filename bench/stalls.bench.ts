/**
 * Event-loop stalls from hostile input (issue 15, items 5 and 16): the longest time serve mode's event loop (the
 * one that carries Stop, every socket and every answer) could not run, while it
 * - takes a ~60 MiB `conversations:import` frame (~20 MiB in --quick) (floor: JSON.parse of the frame and the
 *   file's checks run on the loop, which the fix moved to workers; before the fix the loop also counted the
 *   text's code points for `maxLength` and unmasked the frame in JS, which it no longer does),
 * - reads a 1 MiB page of unclosed `<script` tags through fetch_url (floor: htmlparser2 on the loop; the regexes
 *   before the fix took minutes and are not run),
 * - collects unused attachments (the blob GC: 30 s after every start, and after a conversation with attachments is
 *   deleted) in a long history where every answer has its request record and a tenth of the conversations hold an
 *   image (floor: the same questions asked the way they were before migrations 0010 and 0011, on the loop: every
 *   request body checked for a step, every turn's blocks read for attachments).
 * Measured with perf_hooks.monitorEventLoopDelay (10 ms resolution; 1 ms for the GC): its max.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { BlobStore } from '../src/main/blobs/blob-store';
import { openDatabase } from '../src/main/db/open-database';
import { checkConversationFile } from '../src/main/export/file-format';
import { startServe } from '../src/main/serve/serve-server';
import { createServices } from '../src/main/services';
import { createFetchUrlTool } from '../src/main/tools/fetch-url';
import { htmlToText } from '../src/main/tools/html-text';
import { copyBigDatabase } from './lib/big-database';
import { withCleanup } from './lib/cleanup';
import { tempDir } from './lib/firebrand-ui';
import { quick, report } from './lib/report';

/** The longest stall (ms) while `work` runs, sampled every `resolutionMs`. */
async function maxStall<T>(work: () => Promise<T>, resolutionMs = 10): Promise<{ ms: number; result: T }> {
  const h = monitorEventLoopDelay({ resolution: resolutionMs });
  h.enable();
  try {
    const result = await work();
    return { ms: h.max / 1e6, result };
  } finally {
    h.disable();
  }
}

/** Before migrations 0010 and 0011 the GC swept every request body, then read every turn's blocks for attachments. */
const BODIES_BY_SCAN = 'SELECT digest FROM request_bodies WHERE NOT EXISTS (SELECT 1 FROM steps WHERE steps.request_digest = request_bodies.digest)';
const REFERENCES_BY_SCAN = `SELECT digest FROM blobs WHERE created_at <= ? AND digest NOT IN (SELECT blob_digest FROM request_body_blobs)
  AND digest NOT IN (
    SELECT json_extract(j.value, '$.id') FROM turns, json_each(turns.blocks) AS j
    WHERE turns.blocks LIKE '%"attachment"%' AND json_extract(j.value, '$.type') = 'attachment')`;

function timeOnLoop(work: () => void): number {
  const t = performance.now();
  work();
  return performance.now() - t;
}

await withCleanup(async (cleanup) => {
  const dir = tempDir(cleanup, 'firebrand-bench-stalls-');
  const services = createServices({ dataDir: join(dir, 'data'), log: () => {} });
  cleanup.add('services', () => services.close());
  const serve = await startServe({ services, rendererDir: join(dir, 'renderer'), port: 0, log: () => {} });
  cleanup.add('serve', () => serve.close());

  // 1. The import frame, sent from another process.
  const images = quick ? 1 : 3;
  const child = spawn(process.execPath, [join(import.meta.dirname, 'lib/import-frame-child.mjs'), `${serve.origin.replace('http', 'ws')}/ipc?token=${serve.token}`, serve.origin, String(images)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  cleanup.add('import child', () => child.kill('SIGTERM'));
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  await new Promise<void>((resolve) => {
    const check = () => (out.includes('SENDING') ? resolve() : setTimeout(check, 20));
    check();
  });
  const frame = await maxStall(
    () =>
      new Promise<string>((resolve) => {
        const check = () => (/DONE (\w+)/.test(out) ? resolve(/DONE (\w+)/.exec(out)?.[1] ?? '') : setTimeout(check, 20));
        check();
      }),
  );
  if (frame.result !== 'true') throw new Error(`the import was refused: ${out}`);
  // The floor: the same frame parsed and checked on the loop, as before the fix (the text rebuilt here, untimed).
  const imported = services.handlers['conversations:list']({}) as { id: string }[];
  const file = await services.handlers['conversations:export']({ conversationId: imported[0]?.id ?? '', format: 'json' });
  const oldWay = timeOnLoop(() => {
    const msg = JSON.parse(JSON.stringify({ t: 'invoke', id: 1, channel: 'conversations:import', payload: { text: file.text } })) as { payload: { text: string } };
    checkConversationFile(msg.payload.text);
  });
  report({ figure: `longest stall: ${images * 20} MiB import frame`, value: frame.ms, unit: 'ms', floor: oldWay, ratio: frame.ms / oldWay, note: `frame ${(file.text.length / 2 ** 20).toFixed(0)} MiB` });

  // 2. A hostile page through fetch_url.
  const page = `<p>Intro</p>${'<script'.repeat(150_000)}`;
  const site = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(page));
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', () => r()));
  cleanup.add('site', () => new Promise((r) => site.close(r)));
  const tool = createFetchUrlTool({ allowAddress: (v) => v.address === '127.0.0.1' });
  const ctx = { conversationId: 'b', history: [], signal: new AbortController().signal, readBlob: () => undefined, now: Date.now };
  const fetched = await maxStall(() => tool.run({ url: `http://127.0.0.1:${(site.address() as AddressInfo).port}/` }, ctx));
  if (fetched.result.isError) throw new Error(fetched.result.content);
  const parseOnLoop = timeOnLoop(() => htmlToText(page));
  report({ figure: 'longest stall: fetch_url, 1 MiB of <script', value: fetched.ms, unit: 'ms', floor: parseOnLoop, ratio: fetched.ms / parseOnLoop, note: 'before the fix: minutes (regex backtracking)' });

  // 3. The blob GC in a long history.
  const shape = quick ? { conversations: 1_000, turnsPerConversation: 20 } : { conversations: 10_000, turnsPerConversation: 20 };
  const historyDir = tempDir(cleanup, 'firebrand-bench-gc-');
  copyBigDatabase(shape, historyDir);
  const db = openDatabase(join(historyDir, 'firebrand.db'));
  cleanup.add('history database', () => db.close());
  const digest = (n: number) => n.toString(16).padStart(64, '0');
  let imageCount = 0;
  db.transaction(() => {
    const read = db.prepare('SELECT blocks FROM turns WHERE id = ?');
    const write = db.prepare('UPDATE turns SET blocks = ? WHERE id = ?');
    const blob = db.prepare("INSERT INTO blobs (digest, size, mime, created_at) VALUES (?, 1000, 'image/png', 1)");
    for (let c = 0; c < shape.conversations; c += 10) {
      const turnId = `c${c}-0`;
      const blocks = JSON.parse((read.get(turnId) as { blocks: string }).blocks) as unknown[];
      write.run(JSON.stringify([...blocks, { type: 'attachment', id: digest(c + 1), kind: 'image', name: 'photo.png', mime: 'image/png', size: 1000 }]), turnId);
      blob.run(digest(c + 1));
      imageCount++;
    }
    blob.run(digest(0)); // attached once, its conversation since deleted: the one to collect
    // Every answer's request record: a body (a short template; real ones hold the whole chat) and its step.
    const body = db.prepare('INSERT INTO request_bodies (digest, template, size, created_at) VALUES (?, ?, 600, 1)');
    const step = db.prepare("INSERT INTO steps (id, turn_id, conversation_id, step_index, request_digest, dialect, endpoint, model, created_at) VALUES (?, ?, ?, 0, ?, 'ollama', 'http://127.0.0.1:11434/api/chat', 'llama3.2:3b', 1)");
    const template = JSON.stringify([{ text: 'x'.repeat(600) }]);
    for (let c = 0; c < shape.conversations; c++) {
      for (let t = 1; t < shape.turnsPerConversation; t += 2) {
        const d = `${(c * shape.turnsPerConversation + t).toString(16).padStart(63, '0')}b`;
        body.run(d, template);
        step.run(`c${c}-${t}-s`, `c${c}-${t}`, `c${c}`, d);
      }
    }
  })();
  const gc = await maxStall(() => new BlobStore(db, historyDir).gc({ now: Date.now() }), 1);
  if (gc.result.removed.join() !== digest(0)) throw new Error(`the GC removed ${gc.result.removed.length} blobs, not the unused one`);
  const scan = timeOnLoop(() => {
    db.prepare(BODIES_BY_SCAN).all();
    db.prepare(REFERENCES_BY_SCAN).all(Date.now());
  });
  report({
    figure: `longest stall: blob GC, ${shape.conversations.toLocaleString('en-US')} conversations / ${(shape.conversations * shape.turnsPerConversation).toLocaleString('en-US')} turns, ${imageCount.toLocaleString('en-US')} images`,
    value: gc.ms,
    unit: 'ms',
    floor: scan,
    ratio: gc.ms / scan,
    note: `floor: the GC's scans of every request body and every turn before migrations 0010 and 0011, on the loop; ${(shape.conversations * shape.turnsPerConversation / 2).toLocaleString('en-US')} request records`,
  });
});
