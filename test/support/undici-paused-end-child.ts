/**
 * Run as its own process by test/main/leg/undici-paused-end.test.ts, since what it checks is that the process
 * survives: a server answers 64 KiB and closes the connection, and the body is read only after the client's
 * socket has handled that end. Prints the bytes received; argv[2] 'length' sends a Content-Length, 'eof' none.
 */
import { once } from 'node:events';
import { connect, createServer, type Socket } from 'node:net';
import { Agent, request } from '../../src/main/leg/undici';

// One body's worth of backpressure (the body stream's 64 KiB), in one read: the parser pauses on its last bytes.
const BODY = Buffer.alloc(64 * 1024, 0x61);
const withLength = process.argv[2] === 'length';

const server = createServer((sock: Socket) => {
  sock.once('data', () => {
    sock.write(`HTTP/1.1 200 OK\r\n${withLength ? `Content-Length: ${BODY.length}\r\n` : ''}Connection: close\r\n\r\n`);
    sock.end(BODY);
  });
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
const a = server.address();
let ended!: Promise<unknown>;
const dispatcher = new Agent({
  connect: (opts, done) => {
    const socket = connect({ host: opts.hostname, port: Number(opts.port) });
    // Registered before undici's own listener: this resolves once the end has been emitted to both.
    ended = once(socket, 'end');
    socket.once('connect', () => done(null, socket));
    socket.once('error', (err) => done(err, null));
    return socket;
  },
});
const res = await request(`http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}/model.gguf`, { method: 'GET', dispatcher });
await ended;
let received = 0;
for await (const chunk of res.body) received += (chunk as Buffer).length;
process.stdout.write(`${res.statusCode} ${received}\n`);
await dispatcher.close();
server.close();
