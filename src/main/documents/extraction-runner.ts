/**
 * Runs one extraction per worker_thread, off the main event loop and bounded: a heap limit (resourceLimits) and
 * a wall-clock budget after which the worker is terminated. Whatever the file does (loops, eats memory, throws,
 * kills its thread), the caller gets its text or an `ExtractionFailure` with a message for the user; it never
 * rejects and never hangs. At most `concurrency` workers run at once; later files wait their turn.
 */
import type { Worker } from 'node:worker_threads';
import type { DocumentText, ExtractionFailure } from '../../shared/attachment-text';
import type { ExtractorKind } from './extractor-kind';
import { startWorker as startEntry } from '../workers/start-worker';
import type { WorkerJob, WorkerReply } from './extract-worker';

export interface ExtractionLimits {
  /** Wall-clock budget of one file, queueing excluded (default 60 s: a long PDF on a busy laptop). */
  timeoutMs: number;
  /** The worker's V8 heap limit in MB (default 512). */
  maxHeapMb: number;
  /** Workers at once (default 2). */
  concurrency: number;
}

export const DEFAULT_EXTRACTION_LIMITS: ExtractionLimits = { timeoutMs: 60_000, maxHeapMb: 512, concurrency: 2 };

export type ExtractionResult = { ok: true; doc: DocumentText } | { ok: false; failure: ExtractionFailure };

export class ExtractionRunner {
  private readonly limits: ExtractionLimits;
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly live = new Set<Worker>();

  constructor(limits: Partial<ExtractionLimits> = {}) {
    this.limits = { ...DEFAULT_EXTRACTION_LIMITS, ...limits };
  }

  /** Workers alive right now (tests check none is left behind). */
  get liveWorkers(): number {
    return this.live.size;
  }

  async run(kind: ExtractorKind, bytes: Uint8Array, name: string): Promise<ExtractionResult> {
    await this.slot();
    try {
      return await this.once({ kind, bytes, name });
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }

  /** Ends every worker (shutdown). */
  async close(): Promise<void> {
    await Promise.all([...this.live].map((w) => w.terminate()));
  }

  private slot(): Promise<void> {
    if (this.running < this.limits.concurrency) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise((resolve) =>
      this.waiting.push(() => {
        this.running++;
        resolve();
      }),
    );
  }

  private once(job: WorkerJob): Promise<ExtractionResult> {
    return new Promise((resolve) => {
      let worker: Worker;
      try {
        worker = startWorker(job, this.limits.maxHeapMb);
      } catch (err) {
        resolve(failed(job.name, err));
        return;
      }
      this.live.add(worker);
      let settled = false;
      const settle = (result: ExtractionResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.live.delete(worker);
        void worker.terminate();
        resolve(result);
      };
      const timer = setTimeout(() => {
        settle({
          ok: false,
          failure: { code: 'timeout', message: `Reading “${job.name}” took longer than ${Math.round(this.limits.timeoutMs / 1000)} s and was stopped; the file may be damaged or built to be slow.` },
        });
      }, this.limits.timeoutMs);
      worker.once('message', (reply: WorkerReply) => settle(reply));
      worker.once('error', (err: Error & { code?: string }) => {
        if (err.code === 'ERR_WORKER_OUT_OF_MEMORY') {
          settle({ ok: false, failure: { code: 'too-large', message: `Reading “${job.name}” needed more than ${this.limits.maxHeapMb} MB of memory and was stopped.` } });
        } else settle(failed(job.name, err));
      });
      worker.once('exit', (code) => settle(failed(job.name, new Error(`the reader stopped (exit code ${code})`))));
    });
  }
}

function failed(name: string, err: unknown): ExtractionResult {
  return { ok: false, failure: { code: 'failed', message: `“${name}” could not be read (${err instanceof Error ? err.message : String(err)}).` } };
}

function startWorker(job: WorkerJob, maxHeapMb: number): Worker {
  const options = {
    workerData: job,
    resourceLimits: { maxOldGenerationSizeMb: maxHeapMb, maxYoungGenerationSizeMb: Math.min(64, Math.max(4, maxHeapMb >> 3)) },
    stdout: true,
    stderr: true,
  };
  return startEntry({ built: 'extract-worker.js', source: 'extract-worker.ts' }, import.meta.url, options);
}
