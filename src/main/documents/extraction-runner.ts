/**
 * Runs extractions in reader processes (./extract-process.ts), off the main event loop and bounded: a heap limit
 * (--max-old-space-size) and a time budget after which the reader is ended. Whatever the file does (loops, eats
 * memory, throws, kills its process), the caller gets its text or an `ExtractionFailure` with a message for the
 * user; it never rejects and never hangs. At most `concurrency` readers run at once; later files wait their turn.
 *
 * The time budget counts the reader's own CPU time where the system tells it (Linux), not the wall clock: the
 * reader runs at the lowest priority, so on a machine busy with other work (the built-in engine generating, a
 * build) it may wait for the cores for a long time without being slow itself; a wall-clock budget then failed
 * long PDFs that were merely starved. A wall-clock ceiling (`wallMs`) still ends every job. Elsewhere the budget
 * is wall-clock time.
 *
 * A reader that answered its job is kept for the next one for a while (`idleMs`): starting one and compiling
 * pdf.js again was two thirds of reading a 300-page PDF (about 2 s of 3 on the 2-core CI machine), CPU taken from
 * whatever else runs, such as an answer streaming (bench/extraction). A reader that failed, ran out of time or
 * memory, or was stopped is never reused: the next file gets a fresh one.
 */
import type { ExtractionFailure, DocumentText } from '../../shared/attachment-text';
import type { ExtractorKind } from './extractor-kind';
import { processCpuMs } from '../workers/proc-stat';
import { forkReader } from './reader-fork';
import type { ReaderChannel, ReaderExit, ReaderJob, ReaderReply, ReaderSpawner } from './reader-protocol';

export interface ExtractionLimits {
  /** Time budget of one file, queueing excluded: the reader's CPU time where known (default 60 s: a long PDF on a slow laptop). */
  timeoutMs: number;
  /** The reader's V8 heap limit in MB (default 512). */
  maxHeapMb: number;
  /** However starved the reader is, a file's wall-clock limit, where the budget counts CPU time (default 5 min). */
  wallMs: number;
  /** Readers at once (default 2). */
  concurrency: number;
  /** How long a reader that answered waits for another file before it ends (default 30 s; 0: never kept). */
  idleMs: number;
}

export const DEFAULT_EXTRACTION_LIMITS: ExtractionLimits = { timeoutMs: 60_000, wallMs: 300_000, maxHeapMb: 512, concurrency: 2, idleMs: 30_000 };

export type ExtractionResult = { ok: true; doc: DocumentText } | { ok: false; failure: ExtractionFailure };

/** One reader process and the job it is on, if any. */
interface Reader {
  channel: ReaderChannel;
  /** The job waiting for this reader's answer. */
  job: { reply: (reply: ReaderReply) => void; exit: (exit: ReaderExit) => void } | null;
  /** Set while the reader is kept idle: what to do if it ends on its own. */
  idle: { timer: ReturnType<typeof setTimeout> } | null;
  /** It has answered a job before (its CPU time so far is not the next job's). */
  used: boolean;
  /** Resolves once its process has ended. */
  exited: Promise<void>;
}

export class ExtractionRunner {
  private readonly limits: ExtractionLimits;
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly live = new Set<Reader>();
  /** Readers that answered their last job, newest last. */
  private readonly idle: Reader[] = [];
  private spawnReader: ReaderSpawner | null;
  private answering = false;

  /** `spawner` starts a reader process; default a Node fork of the reader's entry (serve mode, tests). */
  constructor(limits: Partial<ExtractionLimits> = {}, spawner?: ReaderSpawner) {
    this.limits = { ...DEFAULT_EXTRACTION_LIMITS, ...limits };
    this.spawnReader = spawner ?? null;
  }

  /**
   * An answer started (true) or stopped (false) streaming: readers at work pause more for it, or no longer
   * (./reading-pace.ts); a job sent later starts at the pace of the moment.
   */
  setAnswering(answering: boolean): void {
    if (answering === this.answering) return;
    this.answering = answering;
    for (const reader of this.live) {
      if (!reader.job) continue;
      try {
        reader.channel.send({ t: 'pace', answering });
      } catch {
        // The reader is ending; its exit settles its job.
      }
    }
  }

  /** Readers alive right now, busy or kept for the next file (tests check none is left behind). */
  get liveReaders(): number {
    return this.live.size;
  }

  /** The process ids of the live readers, where known (tests; diagnostics). */
  get readerPids(): number[] {
    return [...this.live].flatMap((r) => (r.channel.pid !== undefined ? [r.channel.pid] : []));
  }

  async run(kind: ExtractorKind, bytes: Uint8Array, name: string): Promise<ExtractionResult> {
    await this.slot();
    try {
      // A quarter of the time budget may go to pausing for the answer streaming beside it (./reading-pace.ts).
      return await this.once({ kind, bytes, name, pauseBudgetMs: this.limits.timeoutMs / 4, answering: this.answering });
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }

  /** Ends every reader (shutdown), resolving once their processes are gone. */
  async close(): Promise<void> {
    for (const r of this.idle.splice(0)) this.forget(r);
    const readers = [...this.live];
    for (const r of readers) this.end(r);
    await Promise.all(readers.map((r) => r.exited));
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

  /** A kept reader, else a new one. */
  private reader(): Reader {
    const kept = this.idle.pop();
    if (kept) {
      if (kept.idle) clearTimeout(kept.idle.timer);
      kept.idle = null;
      kept.channel.hold(true);
      return kept;
    }
    this.spawnReader ??= forkReader();
    const channel = this.spawnReader({ maxHeapMb: this.limits.maxHeapMb });
    let exited = () => {};
    const reader: Reader = { channel, job: null, idle: null, used: false, exited: new Promise((resolve) => (exited = resolve)) };
    channel.onReply((reply) => reader.job?.reply(reply));
    channel.onExit((exit) => {
      this.live.delete(reader);
      this.forget(reader);
      reader.job?.exit(exit);
      exited();
    });
    this.live.add(reader);
    return reader;
  }

  /** Keeps a reader that answered for the next file (not holding the app's event loop open), for a while. */
  private keep(reader: Reader): void {
    if (this.limits.idleMs <= 0 || this.idle.length >= this.limits.concurrency) return this.end(reader);
    reader.channel.hold(false);
    const timer = setTimeout(() => {
      this.forget(reader);
      this.end(reader);
    }, this.limits.idleMs);
    timer.unref();
    reader.idle = { timer };
    this.idle.push(reader);
  }

  /** Takes a reader out of the idle list (it ended on its own, or its time to wait is over). */
  private forget(reader: Reader): void {
    const i = this.idle.indexOf(reader);
    if (i >= 0) this.idle.splice(i, 1);
    if (reader.idle) clearTimeout(reader.idle.timer);
    reader.idle = null;
  }

  /** Ends a reader's process (its exit then takes it out of `live`, or has already). */
  private end(reader: Reader): void {
    reader.job = null;
    reader.channel.kill();
  }

  private once(job: ReaderJob): Promise<ExtractionResult> {
    return new Promise((resolve) => {
      let reader: Reader;
      try {
        reader = this.reader();
      } catch (err) {
        resolve(failed(job.name, err));
        return;
      }
      const budget = this.limits.timeoutMs;
      const ceiling = Math.max(budget, this.limits.wallMs);
      const startedAt = performance.now();
      // The reader's CPU time before this job: a kept reader's earlier jobs, or 0 for a new one (its start is
      // part of this job).
      const cpuNow = () => (reader.channel.pid !== undefined ? processCpuMs(reader.channel.pid) : null);
      const cpuBase = reader.used ? cpuNow() : 0;
      let timer: ReturnType<typeof setTimeout>;
      let settled = false;
      const settle = (result: ExtractionResult, reusable = false) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        reader.job = null;
        if (reusable) {
          reader.used = true;
          this.keep(reader);
        } else this.end(reader);
        resolve(result);
      };
      const seconds = Math.round(budget / 1000);
      const check = () => {
        const wall = performance.now() - startedAt;
        const cpu = cpuBase === null ? null : cpuNow();
        if (wall >= ceiling || (cpu === null && wall >= budget)) {
          settle({ ok: false, failure: { code: 'timeout', message: `Reading “${job.name}” took longer than ${Math.round(wall / 1000)} s and was stopped; the file may be damaged or built to be slow. Attach it again to try once more.` } });
        } else if (cpu !== null && cpu - cpuBase! >= budget) {
          settle({ ok: false, failure: { code: 'timeout', message: `Reading “${job.name}” took more than ${seconds} s of processor time and was stopped; the file may be damaged or built to be slow. Attach it again to try once more.` } });
        } else {
          // Checked again about when the rest of the budget could be used up (a reader's CPU time grows at most
          // about as fast as the wall clock: its work is one thread, and its garbage collector's helpers are small).
          const left = cpu === null ? budget - wall : budget - (cpu - cpuBase!);
          timer = setTimeout(check, Math.max(20, Math.min(left, ceiling - wall)));
        }
      };
      timer = setTimeout(check, budget);
      // Only a reader that read its file goes back to the pool: one that met a bad file is not trusted with another.
      reader.job = {
        reply: (reply) => settle(reply, reply.ok),
        exit: (exit) =>
          settle(
            exit.outOfMemory
              ? { ok: false, failure: { code: 'too-large', message: `Reading “${job.name}” needed more than ${this.limits.maxHeapMb} MB of memory and was stopped.` } }
              : failed(job.name, new Error(`the reader stopped (${exit.why})`)),
          ),
      };
      try {
        reader.channel.send(job);
      } catch (err) {
        settle(failed(job.name, err));
      }
    });
  }
}

function failed(name: string, err: unknown): ExtractionResult {
  return { ok: false, failure: { code: 'failed', message: `“${name}” could not be read (${err instanceof Error ? err.message : String(err)}).` } };
}
