// Sends one ~60 MiB `conversations:import` frame to serve mode from its own process (so building and sending it
// costs the measured process nothing). argv: ws URL, origin, images (15 MiB each; 3 make the 60 MiB frame).
// Prints SENDING, then DONE <ok> when answered.
import { createHash, randomBytes } from 'node:crypto';
import { WebSocket } from 'ws';

const [url, origin, images = '3'] = process.argv.slice(2);
const blobs = {};
const blocks = [{ type: 'text', text: 'Three charts' }];
for (let i = 0; i < Number(images); i++) {
  const bytes = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(15 * 1024 * 1024)]);
  const digest = createHash('sha256').update(bytes).digest('hex');
  blobs[digest] = { mime: 'image/png', size: bytes.length, base64: bytes.toString('base64') };
  blocks.push({ type: 'attachment', id: digest, kind: 'image', name: `chart-${i}.png`, mime: 'image/png', size: bytes.length });
}
const id = `big-${Date.now()}`;
const turn = { id: `${id}-u`, conversationId: id, parentId: null, role: 'user', blocks, meta: {}, status: 'done', createdAt: 1 };
const text = JSON.stringify({ format: 'firebrand.conversation', version: 1, exportedAt: 1, conversation: { id, title: 'Big', model: null, activeLeafId: turn.id, createdAt: 1, updatedAt: 1 }, turns: [turn], blobs });
const frame = JSON.stringify({ t: 'invoke', id: 1, channel: 'conversations:import', payload: { text } });
const ws = new WebSocket(url, { origin });
ws.on('open', () => {
  console.log('SENDING');
  ws.send(frame);
});
ws.on('message', (d) => {
  const msg = JSON.parse(d.toString());
  if (msg.t !== 'result') return;
  console.log(`DONE ${msg.result.ok}`);
  ws.close();
});
ws.on('close', () => process.exit(0));
