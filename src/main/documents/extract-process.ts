/**
 * The document reader's process entry (built to out/main/extract-process.js): reads each file it is sent (one at a
 * time: the runner sends the next only after the answer) and posts its text or a failure. A hostile file can only
 * exhaust this process's own heap limit (--max-old-space-size, set by the runner) or its time budget; the runner
 * ends the process and never sends it another file.
 *
 * A process of its own, not a worker thread of main, so that all of its work runs at the lowest CPU priority: a
 * worker thread could lower only itself, while its garbage collection ran on main's shared V8 helper threads at
 * normal priority (about a third of the reader's CPU, read per thread in /proc during bench/extraction), taking
 * the cores from main and the renderer carrying an answer.
 *
 * Two carriers, one protocol (./reader-protocol.ts): an Electron utilityProcess (`process.parentPort`) or a Node
 * `child_process.fork` (`process.send`). It exits when its parent goes away.
 */
import { extractText } from './extract';
import { ExtractionError } from './extraction-error';
import { ReadingPace } from './reading-pace';
import { isReaderPace, type ReaderJob, type ReaderReply } from './reader-protocol';
import { lowerThisProcessPriority } from '../workers/background-priority';

interface ParentPort {
  on(event: 'message', listener: (e: { data: unknown }) => void): void;
  postMessage(message: unknown): void;
}

/** The job being read (one at a time), to which a change of pace applies. */
let pace: ReadingPace | null = null;

async function read(job: ReaderJob): Promise<ReaderReply> {
  // Node's IPC makes a Buffer sent as one a Buffer again, and pdf.js refuses Buffers: a plain view of the bytes.
  const bytes = new Uint8Array(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength);
  const jobPace = (pace = new ReadingPace(job.pauseBudgetMs ?? 0, { answering: job.answering ?? false }));
  try {
    return { ok: true, doc: await extractText(job.kind, bytes, job.name, jobPace) };
  } catch (err) {
    if (err instanceof ExtractionError) return { ok: false, failure: err.toFailure() };
    const why = err instanceof Error ? err.message : String(err);
    return { ok: false, failure: { code: 'failed', message: `“${job.name}” could not be read (${why}).` } };
  } finally {
    if (pace === jobPace) pace = null;
  }
}

// Reading a document is background work: the answer streaming beside it comes first (bench/extraction).
lowerThisProcessPriority();

const parentPort = (process as unknown as { parentPort?: ParentPort }).parentPort;
const reply = (r: ReaderReply) => (parentPort ? parentPort.postMessage(r) : process.send?.(r));
const onMessage = (message: unknown) => {
  if (isReaderPace(message)) pace?.setAnswering(message.answering);
  else void read(message as ReaderJob).then(reply);
};
if (parentPort) parentPort.on('message', (e) => onMessage(e.data));
else {
  process.on('message', onMessage);
  // The parent died or closed the channel: nobody is waiting for the text any more.
  process.on('disconnect', () => process.exit(0));
}
