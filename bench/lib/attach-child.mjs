// Attaches a PDF to serve mode and has its text extracted, from its own process (so reading and encoding the
// file costs the measuring process nothing): `attachments:add` with the file, then `attachments:preview`, which
// runs the extraction (a worker thread in serve mode) and answers with the text the model would get.
// argv: ws URL, origin, PDF path. Prints ADDED when the file is stored, then EXTRACTED <ms> <chars>.
import { readFileSync } from 'node:fs';
import { WebSocket } from 'ws';

const [url, origin, path] = process.argv.slice(2);
const frame = (id, channel, payload) => JSON.stringify({ t: 'invoke', id, channel, payload });
const add = frame(1, 'attachments:add', { name: 'report.pdf', mime: 'application/pdf', dataBase64: readFileSync(path).toString('base64') });
const ws = new WebSocket(url, { origin });
let started = 0;
ws.on('open', () => ws.send(add));
ws.on('message', (d) => {
  const msg = JSON.parse(d.toString());
  if (msg.t !== 'result') return;
  if (!msg.result.ok) {
    console.log(`FAILED ${JSON.stringify(msg.result.error)}`);
    ws.close();
    return;
  }
  if (msg.id === 1) {
    console.log('ADDED');
    started = performance.now();
    ws.send(frame(2, 'attachments:preview', { block: msg.result.value }));
  } else {
    console.log(`EXTRACTED ${(performance.now() - started).toFixed(0)} ${msg.result.value.text.length}`);
    ws.close();
  }
});
ws.on('close', () => process.exit(0));
