/**
 * The worker thread's entry (built to out/main/firebrand-worker.js): runs one task named in `workerData` and
 * posts its result, or the error as plain data (a class does not survive the thread boundary; the user's
 * message and code do).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { UserFacingError } from '../errors';
import { workerTasks, type WorkerTaskName } from './tasks';

interface Job {
  task: WorkerTaskName;
  input: unknown;
}

const job = workerData as Job;
try {
  const run = workerTasks[job.task] as (input: unknown) => unknown;
  const output = run(job.input);
  parentPort?.postMessage({ ok: true, output }, transferables(output));
} catch (err) {
  parentPort?.postMessage({
    ok: false,
    code: err instanceof UserFacingError ? err.code : undefined,
    message: err instanceof Error ? err.message : String(err),
  });
}

/** Attachment bytes move to main instead of being copied. */
function transferables(output: unknown): ArrayBuffer[] {
  if (!output || typeof output !== 'object' || !('blobs' in output)) return [];
  const blobs = (output as { blobs: Record<string, { bytes?: unknown }> }).blobs;
  const out = new Set<ArrayBuffer>();
  for (const b of Object.values(blobs)) {
    // Only a buffer the bytes own whole: a small Buffer may share Node's pool with others.
    const bytes = b.bytes;
    if (bytes instanceof Uint8Array && bytes.buffer instanceof ArrayBuffer && bytes.byteLength === bytes.buffer.byteLength) out.add(bytes.buffer);
  }
  return [...out];
}
