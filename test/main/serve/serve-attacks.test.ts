/**
 * Issue 15, serve mode under attack: each attack is written as raw bytes to a serve-mode PROCESS, and after each
 * one the process must still be alive and answering. Before the fix, the malformed upgrade, the `null` frame
 * and every WebSocket protocol error below killed the process (no token needed for the first).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { frame, httpHead, rawExchange, startServeChild, statusOf, upgradeHeaders, wsAttack, type ServeChild } from './raw-socket';

let dir: string;
let serve: ServeChild;
const outcomes: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'firebrand-attacks-'));
  serve = await startServeChild(join(dir, 'data'));
}, 60_000);
// Each attack meets a live process: one that an earlier attack killed is started again, so every attack is
// judged on its own.
beforeEach(async () => {
  const answers = await fetch(`http://127.0.0.1:${serve.port}/`).then(() => true, () => false);
  if (answers && serve.alive()) return;
  await serve.stop();
  serve = await startServeChild(join(dir, 'data'));
}, 60_000);
afterAll(async () => {
  await serve.stop();
  rmSync(dir, { recursive: true, force: true });
  console.log(['', `serve-mode attacks: ${outcomes.length}`, ...outcomes].join('\n'));
});

/** The process is alive and still answers a plain request and a real authenticated invoke. */
async function stillServing(what: string): Promise<void> {
  expect(serve.alive(), `${what}: the process died\n${serve.output()}`).toBe(true);
  const page = await fetch(`http://127.0.0.1:${serve.port}/?token=${serve.token}`);
  expect(page.status, what).not.toBe(500);
  const answer = await invoke([{ t: 'invoke', id: 1, channel: 'settings:get', payload: {} }]);
  expect(answer[0], what).toMatchObject({ t: 'result', id: 1, result: { ok: true } });
}

/** Opens a real socket with the token, sends each message as a text frame, and returns the answers to invokes. */
async function invoke(messages: unknown[], raw: string[] = []): Promise<unknown[]> {
  const ws = new WebSocket(`ws://127.0.0.1:${serve.port}/ipc?token=${serve.token}`, { origin: `http://127.0.0.1:${serve.port}` });
  await new Promise<void>((done, fail) => {
    ws.once('open', () => done());
    ws.once('error', fail);
  });
  const answers: unknown[] = [];
  ws.on('message', (d) => {
    const msg = JSON.parse(d.toString()) as { t: string };
    if (msg.t === 'result') answers.push(msg);
  });
  for (const r of raw) ws.send(r);
  for (const m of messages) ws.send(JSON.stringify(m));
  const expected = messages.length;
  await expect.poll(() => answers.length, { timeout: 15_000 }).toBe(expected);
  ws.close();
  return answers;
}

describe('serve mode survives what a client sends', () => {
  it('a WebSocket upgrade whose request target no URL parser accepts gets a 400, with or without a token', async () => {
    for (const target of ['http://[zz]/ipc', `http://[zz]/ipc?token=${serve.token}`, '*', 'http://a b/ipc']) {
      const raw = await rawExchange(serve.port, httpHead(target, upgradeHeaders(`127.0.0.1:${serve.port}`)));
      expect(statusOf(raw), target).toBe(400);
      outcomes.push(`  upgrade to ${JSON.stringify(target)}: ${statusOf(raw)}`);
      await stillServing(target);
    }
  });

  it('an authenticated socket sending JSON that is not an invoke object (null, [], 42, "x") is ignored', async () => {
    const answers = await invoke([{ t: 'invoke', id: 7, channel: 'settings:get', payload: {} }], ['null', '[]', '42', '"x"', 'true', '{"t":"invoke","id":"1"}', 'not json']);
    expect(answers).toEqual([expect.objectContaining({ id: 7, result: expect.objectContaining({ ok: true }) })]);
    outcomes.push('  text frames null, [], 42, "x", true, a string id, not-JSON: ignored, the socket keeps working');
    await stillServing('non-object frames');
  });

  const protocolErrors: [string, Buffer[], number][] = [
    ['invalid UTF-8 in a text frame', [frame({ opcode: 0x1, payload: Buffer.from([0xc3, 0x28, 0xff]) })], 1007],
    ['an unmasked client frame', [frame({ opcode: 0x1, payload: Buffer.from('{}'), mask: false })], 1002],
    ['a reserved opcode (0x3)', [frame({ opcode: 0x3, payload: Buffer.from('x') })], 1002],
    ['RSV1 set without an extension', [frame({ opcode: 0x1, rsv: 0b100, payload: Buffer.from('{}') })], 1002],
    ['a ping over 125 bytes', [frame({ opcode: 0x9, payload: Buffer.alloc(126, 0x61) })], 1002],
    ['a close frame with code 999', [frame({ opcode: 0x8, payload: Buffer.from([0x03, 0xe7]) })], 1002],
    ['a fragmented control frame', [frame({ opcode: 0x9, fin: false, payload: Buffer.from('x') })], 1002],
    ['a continuation with nothing to continue', [frame({ opcode: 0x0, payload: Buffer.from('x') })], 1002],
    ['a frame announcing more than the size limit (65 MiB)', [frame({ opcode: 0x1, declaredLength: 65n * 1024n * 1024n + 1n })], 1009],
    ['a frame announcing 2^63-1 bytes', [frame({ opcode: 0x2, declaredLength: 2n ** 63n - 1n })], 1009],
  ];
  for (const [what, frames, code] of protocolErrors) {
    it(`a protocol error closes that socket only: ${what}`, async () => {
      const result = await wsAttack(serve.port, serve.token, frames);
      expect(result.handshake, what).toBe(101);
      expect(result.closeCode, what).toBe(code);
      outcomes.push(`  ${what}: socket closed with ${result.closeCode}`);
      await stillServing(what);
    });
  }

  it('answers 400 to a bad % escape, not 500', async () => {
    for (const target of ['/%E0%A4%A', '/%', '/assets/%ZZ.js']) {
      const raw = await rawExchange(serve.port, httpHead(target, { Host: `127.0.0.1:${serve.port}`, Connection: 'close' }));
      expect(statusOf(raw), target).toBe(400);
      outcomes.push(`  GET ${target}: ${statusOf(raw)}`);
    }
    await stillServing('bad escapes');
  });

  it('answers no other Host name (DNS rebinding): HTTP and socket alike', async () => {
    for (const host of ['evil.example', `evil.example:${serve.port}`, `127.0.0.1.nip.io:${serve.port}`, '']) {
      const http = await rawExchange(serve.port, httpHead(`/?token=${serve.token}`, { Host: host, Connection: 'close' }));
      expect(statusOf(http), `GET with Host ${host}`).toBe(403);
      const ws = await rawExchange(serve.port, httpHead(`/ipc?token=${serve.token}`, upgradeHeaders(host)));
      expect([400, 403], `upgrade with Host ${host}`).toContain(statusOf(ws));
      outcomes.push(`  Host ${JSON.stringify(host)}: HTTP ${statusOf(http)}, socket ${statusOf(ws)}`);
    }
    for (const host of [`127.0.0.1:${serve.port}`, `localhost:${serve.port}`, `[::ffff:127.0.0.1]:${serve.port}`]) {
      const http = await rawExchange(serve.port, httpHead(`/?token=${serve.token}`, { Host: host, Connection: 'close' }));
      expect(statusOf(http), host).not.toBe(403);
    }
  });

  it('a socket from a browser is accepted only when its Origin is the host it came in on', async () => {
    const port = serve.port;
    const cases: [string, string, number][] = [
      [`127.0.0.1:${port}`, `http://127.0.0.1:${port}`, 101],
      [`localhost:${port}`, `http://localhost:${port}`, 101],
      [`127.0.0.1:${port}`, `http://localhost:${port}`, 403],
      [`127.0.0.1:${port}`, 'http://evil.example', 403],
      [`127.0.0.1:${port}`, `http://127.0.0.1:${port + 1}`, 403],
      [`127.0.0.1:${port}`, 'null', 403],
    ];
    for (const [host, origin, status] of cases) {
      const raw = await rawExchange(port, httpHead(`/ipc?token=${serve.token}`, upgradeHeaders(host, { Origin: origin })), (r) => r.includes('\r\n\r\n'));
      expect(statusOf(raw), `${host} from ${origin}`).toBe(status);
      outcomes.push(`  socket on ${host} from Origin ${origin}: ${statusOf(raw)}`);
    }
  });
});

describe('serve mode refuses a guessable --token', () => {
  for (const token of ['short', 'a'.repeat(21), '0123456789abcdef0123456789abcde', 'has space and more than enough characters']) {
    it(`refuses --token ${JSON.stringify(token)} and does not start`, async () => {
      const err = await startServeChild(join(dir, `data-${token.length}`), ['--token', token]).then(
        async (s) => {
          await s.stop();
          return undefined;
        },
        (e: unknown) => e as Error,
      );
      expect(err?.message).toMatch(/--token/);
      outcomes.push(`  --token ${JSON.stringify(token)}: refused at start`);
    });
  }

  it('starts with a 128-bit token (32 hex characters, 22 base64url)', async () => {
    for (const token of ['0123456789abcdef0123456789abcdef', 'AbCdEfGhIjKlMnOpQrStUv']) {
      const s = await startServeChild(join(dir, `ok-${token.length}`), ['--token', token]);
      expect(s.token).toBe(token);
      await s.stop();
    }
  });
});
