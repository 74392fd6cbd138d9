/**
 * The extraction worker's entry (a worker_thread): reads each file it is sent (one at a time: the runner sends
 * the next only after the answer) and posts its text or a failure. A hostile file can only exhaust this thread's
 * own memory limit or time budget; the runner terminates it and never sends it another file.
 */
import { parentPort } from 'node:worker_threads';
import type { DocumentText, ExtractionFailure } from '../../shared/attachment-text';
import { extractText } from './extract';
import type { ExtractorKind } from './extractor-kind';
import { ExtractionError } from './extraction-error';
import { ReadingPace } from './reading-pace';
import { lowerThisThreadsPriority } from '../workers/thread-priority';

export interface WorkerJob {
  kind: ExtractorKind;
  name: string;
  bytes: Uint8Array;
  /** Most time the reader may spend pausing for the work beside it (./reading-pace.ts). */
  pauseBudgetMs?: number;
}

export type WorkerReply = { ok: true; doc: DocumentText } | { ok: false; failure: ExtractionFailure };

async function main(job: WorkerJob): Promise<WorkerReply> {
  try {
    return { ok: true, doc: await extractText(job.kind, job.bytes, job.name, new ReadingPace(job.pauseBudgetMs ?? 0)) };
  } catch (err) {
    if (err instanceof ExtractionError) return { ok: false, failure: err.toFailure() };
    const why = err instanceof Error ? err.message : String(err);
    return { ok: false, failure: { code: 'failed', message: `“${job.name}” could not be read (${why}).` } };
  }
}

// Reading a document is background work: the answer streaming beside it comes first (bench/extraction).
lowerThisThreadsPriority();
parentPort?.on('message', (job: WorkerJob) => void main(job).then((reply) => parentPort?.postMessage(reply)));
