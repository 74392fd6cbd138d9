/**
 * Request bodies stored whole before migration 0015 are cut into shared chunks after a start, in the background:
 * a user of earlier versions had gigabytes of them (each request of a chat repeating its history), which would
 * otherwise stay until their chats are deleted. A slice at a time between other work, as free-space.ts gives
 * pages back: one long transaction would stall an answer streaming meanwhile. A body is rewritten only when its
 * new template rebuilds the same sha256; one that cannot be read (a missing blob) is left as it is.
 */
import type { Database, Statement } from 'better-sqlite3';
import { BodyChunkStore } from './body-chunk-store';
import { runInSlices } from './background-slices';
import { releaseFreePages } from './free-space';
import { renderBody, sha256Hex, templateBody, type BodySegment } from './request-body';

/** After the startup blob GC (30 s): the first window and model list come first. */
export const RECHUNK_DELAY_MS = 60_000;
/** Work per turn of the event loop: a few ms, so tokens of a streaming answer reach the page in between. */
export const RECHUNK_SLICE_MS = 4;
/** And at most this many steps (a step: a few ms for the largest bodies), whatever the clock says. */
export const RECHUNK_SLICE_STEPS = 8;

interface BodyRow {
  rowid: number;
  digest: string;
  template: string;
}

/** A body cut into chunks in memory: chunk segments name an index into `chunks` until they are stored. */
interface CutBody {
  segments: BodySegment[];
  chunks: Buffer[];
  blobs: Map<string, Uint8Array>;
}

/**
 * Walks request_bodies once, in rowid order, rewriting the templates that name no chunk; where it has got to is
 * kept (body_rechunk_progress), so a walk cut by a quit goes on at the next start, and a finished one never runs
 * again. (A VACUUM may renumber rowids meanwhile: a body it then skips stays whole, which only costs space.)
 *
 * One body is converted in steps (read, parse, rebuild and check, cut, store), the slice checking its clock between
 * them (round 6: one whole 300 kB body a slice took 19 ms at the median and up to 47 ms, delaying an answer's
 * tokens). Only the last step writes, in one transaction, so a body left part way by a quit is simply done again.
 */
export class BodyRechunker {
  private readonly progress: Statement;
  private readonly saveProgress: Statement;
  private readonly finish: Statement;
  private readonly next: Statement;
  private readonly rewrite: Statement;
  private readonly chunks: BodyChunkStore;
  /** Stores one cut body, in a transaction: a failure takes back the chunks written for it, which no body would name. */
  private readonly store: (row: BodyRow, cut: CutBody) => void;
  /** The body being converted, a step per `next()`; it returns whether the body was rewritten. */
  private job: Generator<void, boolean> | undefined;

  constructor(
    private readonly db: Database,
    private readonly readBlob: (digest: string) => Uint8Array | undefined,
    private readonly clock: () => number = () => performance.now(),
  ) {
    this.progress = db.prepare('SELECT after FROM body_rechunk_progress').pluck();
    this.saveProgress = db.prepare('UPDATE body_rechunk_progress SET after = ?');
    this.finish = db.prepare('DELETE FROM body_rechunk_progress');
    this.next = db.prepare('SELECT rowid, digest, template FROM request_bodies WHERE rowid > ? ORDER BY rowid LIMIT 1');
    this.rewrite = db.prepare('UPDATE request_bodies SET template = ? WHERE digest = ?');
    this.chunks = new BodyChunkStore(db);
    this.store = db.transaction((row: BodyRow, cut: CutBody) => this.storeCut(row, cut));
  }

  /**
   * Converts bodies for `budgetMs` by the clock, or `maxSteps` steps, whichever comes first (at least one step);
   * returns the number rewritten, or undefined once none is left.
   */
  slice(budgetMs = RECHUNK_SLICE_MS, maxSteps = RECHUNK_SLICE_STEPS): number | undefined {
    const until = this.clock() + budgetMs;
    let rewritten = 0;
    for (let steps = 1; ; steps++) {
      if (!this.job) {
        const after = this.progress.get() as number | undefined;
        const row = after === undefined ? undefined : (this.next.get(after) as BodyRow | undefined);
        if (!row) {
          if (after !== undefined) this.finish.run();
          return rewritten === 0 ? undefined : rewritten;
        }
        // Reading a large row is a step of its own (a 570 kB template: about 1 ms, its parse 3 to 4 more).
        this.job = this.convert(row);
      } else {
        const step = this.job.next();
        if (step.done) {
          this.job = undefined;
          if (step.value) rewritten++;
        }
      }
      if (steps >= maxSteps || this.clock() >= until) return rewritten;
    }
  }

  /** One body, a step per yield; only the last step writes. Whatever fails leaves the body whole, as it was. */
  private *convert(row: BodyRow): Generator<void, boolean> {
    let rewritten = false;
    try {
      if (!row.template.includes('{"c":')) {
        const segments = JSON.parse(row.template) as BodySegment[];
        yield;
        const blobs = new Map<string, Uint8Array>();
        const bytes = renderBody(segments, (d) => this.blob(d, blobs), noChunk);
        if (sha256Hex(bytes) === row.digest) {
          yield;
          const chunks: Buffer[] = [];
          const template = templateBody(bytes, blobs, (chunk) => chunks.push(chunk) - 1);
          // Text all under INLINE_LITERAL_BYTES between attachments: nothing to share, the template stays as it is.
          if (chunks.length > 0) {
            yield;
            this.store(row, { segments: template.segments, chunks, blobs });
            rewritten = true;
          }
        }
      }
    } catch (err) {
      // A full disk: the walk stops here and goes on at a later start (scheduleRechunk), the body not skipped.
      if ((err as { code?: unknown } | null)?.code === 'SQLITE_FULL') throw err;
      // Left whole, as it was (a blob missing, a template damaged, the body deleted meanwhile): it reads, or fails to, as before.
    }
    if (!rewritten) this.saveProgress.run(row.rowid);
    return rewritten;
  }

  private storeCut(row: BodyRow, cut: CutBody): void {
    const ids = cut.chunks.map((chunk) => this.chunks.write(chunk));
    const segments = cut.segments.map((seg) => ('c' in seg ? { c: ids[seg.c]! } : seg));
    const check = renderBody(segments, (d) => this.blob(d, cut.blobs), (id) => this.chunks.read(id, row.digest));
    if (sha256Hex(check) !== row.digest) throw new Error('rebuilt body differs');
    // Gone since it was read (its chat deleted between two slices): its chunks are not kept either.
    if (this.rewrite.run(JSON.stringify(segments), row.digest).changes !== 1) throw new Error('body deleted meanwhile');
    this.saveProgress.run(row.rowid);
  }

  /** A blob's bytes, read once per body. */
  private blob(digest: string, read: Map<string, Uint8Array>): Uint8Array {
    const bytes = read.get(digest) ?? this.readBlob(digest);
    if (!bytes) throw new Error(`missing blob ${digest}`);
    read.set(digest, bytes);
    return bytes;
  }
}

function noChunk(): never {
  throw new Error('a template without chunks names one');
}

/**
 * Runs the rechunker from `delayMs` after now until no whole body is left, a slice per turn of the event loop;
 * stops by itself when the database closes. Never throws: a failure is logged and the rest left for the next start.
 */
export function scheduleRechunk(db: Database, readBlob: (digest: string) => Uint8Array | undefined, log: (m: string) => void, delayMs = RECHUNK_DELAY_MS): void {
  const rechunker = new BodyRechunker(db, readBlob);
  let total = 0;
  runInSlices(
    db,
    {
      slice: () => {
        const n = rechunker.slice();
        if (n === undefined) return true;
        total += n;
        return false;
      },
      done: () => {
        if (total > 0) log(`storage: stored ${total} older request record(s) in shared chunks`);
        releaseFreePages(db);
      },
      // A full disk, the database closed meanwhile: the rest waits for the next start.
      failed: (err) => log(`storage: could not store older request records in chunks: ${err instanceof Error ? err.message : String(err)}`),
    },
    delayMs,
  );
}
