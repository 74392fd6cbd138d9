/**
 * The Models screen's banner, where a llama-server or OpenAI-compatible server never answered its model list, said
 * it twice: "Desk llama at http://… did not answer: The server did not answer within 10 s." It says it once now,
 * naming the server as the user named it, with its address.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { listV1Models } from '../../../src/main/models/model-list';

let silent: Server | undefined;
afterEach(async () => {
  silent?.closeAllConnections();
  await new Promise((done) => silent?.close(done) ?? done(undefined));
  silent = undefined;
});

describe('a /v1/models that never answers', () => {
  // The probe's own limit is 10 s: this test waits for it.
  it('says the server did not answer within 10 s, once', { timeout: 60_000 }, async () => {
    silent = createServer(() => undefined);
    await new Promise<void>((done) => silent?.listen(0, '127.0.0.1', done));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    await expect(listV1Models({ kind: 'llama-server', label: 'Desk llama', baseUrl: url }, {})).rejects.toHaveProperty('message', `Desk llama at ${url} did not answer within 10 s.`);
  });
});
