/**
 * Request bodies stored whole before migration 0015 are cut into shared chunks after a start, in the background:
 * a user of earlier versions had gigabytes of them (each request of a chat repeating its history), which would
 * otherwise stay until their chats are deleted. A slice at a time between other work, as free-space.ts gives
 * pages back: one long transaction would stall an answer streaming meanwhile. A body is rewritten only when its
 * new template rebuilds the same sha256; one that cannot be read (a missing blob) is left as it is.
 */
import type { Database, Statement } from 'better-sqlite3';
import { BodyChunkStore } from './body-chunk-store';
import { releaseFreePages } from './free-space';
import { renderBody, sha256Hex, templateBody, type BodySegment } from './request-body';

/** After the startup blob GC (30 s): the first window and model list come first. */
export const RECHUNK_DELAY_MS = 60_000;
/** Work per turn of the event loop: a few ms, so a streaming answer does not stall. */
export const RECHUNK_SLICE_MS = 8;

interface BodyRow {
  rowid: number;
  digest: string;
  template: string;
}

/**
 * Walks request_bodies once, in rowid order, rewriting the templates that name no chunk; where it has got to is
 * kept (body_rechunk_progress), so a walk cut by a quit goes on at the next start, and a finished one never runs
 * again. (A VACUUM may renumber rowids meanwhile: a body it then skips stays whole, which only costs space.)
 */
export class BodyRechunker {
  private readonly progress: Statement;
  private readonly saveProgress: Statement;
  private readonly finish: Statement;
  private readonly next: Statement;
  private readonly rewrite: Statement;
  private readonly chunks: BodyChunkStore;
  /** One body, in a savepoint: a failure takes back the chunks written for it, which no body would name. */
  private readonly rechunkOne: (row: BodyRow) => boolean;

  constructor(
    private readonly db: Database,
    private readonly readBlob: (digest: string) => Uint8Array | undefined,
  ) {
    this.progress = db.prepare('SELECT after FROM body_rechunk_progress').pluck();
    this.saveProgress = db.prepare('UPDATE body_rechunk_progress SET after = ?');
    this.finish = db.prepare('DELETE FROM body_rechunk_progress');
    this.next = db.prepare('SELECT rowid, digest, template FROM request_bodies WHERE rowid > ? ORDER BY rowid LIMIT 16');
    this.rewrite = db.prepare('UPDATE request_bodies SET template = ? WHERE digest = ?');
    this.chunks = new BodyChunkStore(db);
    this.rechunkOne = db.transaction((row: BodyRow) => this.rechunk(row));
  }

  /** Rewrites bodies for about `budgetMs`; returns the number rewritten, or undefined once none is left. */
  slice(budgetMs = RECHUNK_SLICE_MS): number | undefined {
    const until = performance.now() + budgetMs;
    let rewritten = 0;
    let done = false;
    this.db.transaction(() => {
      let after = this.progress.get() as number | undefined;
      if (after === undefined) {
        done = true;
        return;
      }
      // At least one body a slice, however short the budget.
      for (;;) {
        const rows = this.next.all(after) as BodyRow[];
        if (rows.length === 0) {
          this.finish.run();
          done = true;
          return;
        }
        for (const row of rows) {
          after = row.rowid;
          this.saveProgress.run(after);
          try {
            if (this.rechunkOne(row)) rewritten++;
          } catch {
            // Left whole, as it was (a blob missing, a template damaged): it reads, or fails to, as before.
          }
          if (performance.now() >= until) return;
        }
      }
    })();
    return done && rewritten === 0 ? undefined : rewritten;
  }

  private rechunk(row: BodyRow): boolean {
    if (row.template.includes('{"c":')) return false;
    const segments = JSON.parse(row.template) as BodySegment[];
    const blobs = new Map<string, Uint8Array>();
    const readBlob = (d: string) => {
      const bytes = blobs.get(d) ?? this.readBlob(d);
      if (!bytes) throw new Error(`missing blob ${d}`);
      blobs.set(d, bytes);
      return bytes;
    };
    const noChunk = () => {
      throw new Error('a template without chunks names one');
    };
    const bytes = renderBody(segments, readBlob, noChunk);
    if (sha256Hex(bytes) !== row.digest) return false;
    const template = templateBody(bytes, blobs, (chunk) => this.chunks.write(chunk));
    // Text all under INLINE_LITERAL_BYTES between attachments: nothing to share, the template stays as it is.
    if (!template.segments.some((seg) => 'c' in seg)) return false;
    const check = renderBody(template.segments, readBlob, (id) => this.chunks.read(id, row.digest));
    if (sha256Hex(check) !== row.digest) throw new Error('rebuilt body differs');
    this.rewrite.run(JSON.stringify(template.segments), row.digest);
    return true;
  }
}

/**
 * Runs the rechunker from `delayMs` after now until no whole body is left, a slice per turn of the event loop;
 * stops by itself when the database closes. Never throws: a failure is logged and the rest left for the next start.
 */
export function scheduleRechunk(db: Database, readBlob: (digest: string) => Uint8Array | undefined, log: (m: string) => void, delayMs = RECHUNK_DELAY_MS): void {
  const rechunker = new BodyRechunker(db, readBlob);
  let total = 0;
  const step = () => {
    if (!db.open) return;
    try {
      const n = rechunker.slice();
      if (n === undefined) {
        if (total > 0) log(`storage: stored ${total} older request record(s) in shared chunks`);
        releaseFreePages(db);
        return;
      }
      total += n;
    } catch (err) {
      // A full disk, the database closed meanwhile: the rest waits for the next start.
      log(`storage: could not store older request records in chunks: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    setImmediate(step).unref();
  };
  setTimeout(step, delayMs).unref();
}
