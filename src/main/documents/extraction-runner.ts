/**
 * Runs extractions in worker_threads, off the main event loop and bounded: a heap limit (resourceLimits) and a
 * wall-clock budget after which the worker is terminated. Whatever the file does (loops, eats memory, throws,
 * kills its thread), the caller gets its text or an `ExtractionFailure` with a message for the user; it never
 * rejects and never hangs. At most `concurrency` workers run at once; later files wait their turn.
 *
 * A worker that answered its job is kept for the next one for a while (`idleMs`): starting a thread and compiling
 * pdf.js again was two thirds of reading a 300-page PDF (about 2 s of 3 on the 2-core CI machine), CPU taken
 * from whatever else runs, such as an answer streaming (bench/extraction). A worker that failed, ran out of time
 * or memory, or was stopped is never reused: the next file gets a fresh one.
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
  /** How long a worker that answered waits for another file before it ends (default 30 s; 0: never kept). */
  idleMs: number;
}

export const DEFAULT_EXTRACTION_LIMITS: ExtractionLimits = { timeoutMs: 60_000, maxHeapMb: 512, concurrency: 2, idleMs: 30_000 };

export type ExtractionResult = { ok: true; doc: DocumentText } | { ok: false; failure: ExtractionFailure };

export class ExtractionRunner {
  private readonly limits: ExtractionLimits;
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly live = new Set<Worker>();
  /** Workers that answered their last job, newest last, each with the timer that ends it. */
  private readonly idle: { worker: Worker; timer: ReturnType<typeof setTimeout>; gone: () => void }[] = [];

  constructor(limits: Partial<ExtractionLimits> = {}) {
    this.limits = { ...DEFAULT_EXTRACTION_LIMITS, ...limits };
  }

  /** Workers alive right now, busy or kept for the next file (tests check none is left behind). */
  get liveWorkers(): number {
    return this.live.size;
  }

  async run(kind: ExtractorKind, bytes: Uint8Array, name: string): Promise<ExtractionResult> {
    await this.slot();
    try {
      // A quarter of the time budget may go to pausing for the answer streaming beside it (./reading-pace.ts).
      return await this.once({ kind, bytes, name, pauseBudgetMs: this.limits.timeoutMs / 4 });
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }

  /** Ends every worker (shutdown). */
  async close(): Promise<void> {
    for (const { worker, timer, gone } of this.idle.splice(0)) {
      clearTimeout(timer);
      worker.off('exit', gone);
    }
    await Promise.all([...this.live].map((w) => w.terminate()));
    this.live.clear();
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

  /** A kept worker, else a new one. */
  private worker(): Worker {
    const kept = this.idle.pop();
    if (kept) {
      clearTimeout(kept.timer);
      kept.worker.off('exit', kept.gone);
      kept.worker.ref();
      return kept.worker;
    }
    const worker = startWorker(this.limits.maxHeapMb);
    this.live.add(worker);
    return worker;
  }

  /** Keeps a worker that answered for the next file (unref'd: it does not keep the process alive), for a while. */
  private keep(worker: Worker): void {
    if (this.limits.idleMs <= 0 || this.idle.length >= this.limits.concurrency) return this.end(worker);
    worker.unref();
    const drop = () => {
      const i = this.idle.findIndex((k) => k.worker === worker);
      if (i >= 0) {
        clearTimeout(this.idle[i]!.timer);
        this.idle.splice(i, 1);
      }
      this.end(worker);
    };
    const timer = setTimeout(drop, this.limits.idleMs);
    timer.unref();
    // A kept worker that ends on its own is simply forgotten.
    worker.once('exit', drop);
    this.idle.push({ worker, timer, gone: drop });
  }

  private end(worker: Worker): void {
    this.live.delete(worker);
    void worker.terminate();
  }

  private once(job: WorkerJob): Promise<ExtractionResult> {
    return new Promise((resolve) => {
      let worker: Worker;
      try {
        worker = this.worker();
      } catch (err) {
        resolve(failed(job.name, err));
        return;
      }
      let settled = false;
      const settle = (result: ExtractionResult, reusable = false) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        if (reusable) this.keep(worker);
        else this.end(worker);
        resolve(result);
      };
      const timer = setTimeout(() => {
        settle({
          ok: false,
          failure: { code: 'timeout', message: `Reading “${job.name}” took longer than ${Math.round(this.limits.timeoutMs / 1000)} s and was stopped; the file may be damaged or built to be slow.` },
        });
      }, this.limits.timeoutMs);
      // Only a worker that read its file goes back to the pool: one that met a bad file is not trusted with another.
      const onMessage = (reply: WorkerReply) => settle(reply, reply.ok);
      const onError = (err: Error & { code?: string }) => {
        if (err.code === 'ERR_WORKER_OUT_OF_MEMORY') {
          settle({ ok: false, failure: { code: 'too-large', message: `Reading “${job.name}” needed more than ${this.limits.maxHeapMb} MB of memory and was stopped.` } });
        } else settle(failed(job.name, err));
      };
      const onExit = (code: number) => settle(failed(job.name, new Error(`the reader stopped (exit code ${code})`)));
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.postMessage(job);
    });
  }
}

function failed(name: string, err: unknown): ExtractionResult {
  return { ok: false, failure: { code: 'failed', message: `“${name}” could not be read (${err instanceof Error ? err.message : String(err)}).` } };
}

function startWorker(maxHeapMb: number): Worker {
  const options = {
    resourceLimits: { maxOldGenerationSizeMb: maxHeapMb, maxYoungGenerationSizeMb: Math.min(64, Math.max(4, maxHeapMb >> 3)) },
    stdout: true,
    stderr: true,
  };
  return startEntry({ built: 'extract-worker.js', source: 'extract-worker.ts' }, import.meta.url, options);
}
