import { open, readdir, rm, stat } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { writeFileAtomic } from './atomic-write';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import type { AttachmentBlock } from '../../shared/turn';
import { sha256Hex } from '../db/request-body';
import { UserFacingError } from '../errors';
import { readOnlyReason } from '../db/read-only-copy';
import { isDiskFull } from '../db/disk-reserve';
import { attachmentKind, checkClaimedType, sniffMime } from './sniff';
import { bytesHoldAs, checkAttachment, DEFAULT_MAX_ATTACHMENT_BYTES, displayName } from './attachment-checks';
import { extractorFor, unreadableTypeMessage } from '../../shared/readable-types';

export { DEFAULT_MAX_ATTACHMENT_BYTES, displayName, formatSize } from './attachment-checks';

const DIGEST = /^[0-9a-f]{64}$/;
/** Leftovers of an interrupted write: `.tmp-<uuid>` beside the blob it was becoming. */
const TEMP = /^\.tmp-[0-9a-f-]{36}$/;
/** A file derived from a blob, beside it (sidecars.ts): `<digest>.<suffix>`. */
const SIDECAR = /^([0-9a-f]{64})\.[a-z0-9][a-z0-9.-]*$/;

export interface BlobStoreOptions {
  /** Largest attachment accepted, in bytes. */
  maxBytes?: number;
}

export interface GcOptions {
  now: number;
  /**
   * Blobs stored (or stored again) less than this long ago survive: an attachment is put before the message
   * that references it is sent. Default one hour.
   */
  graceMs?: number;
  /**
   * Blobs a conversation deleted for good referenced: these need no grace period, since they were sent, unless
   * stored again after `before` (the conversation's last change: the same file waits in the composer now). Only
   * these go then, whatever their age: a file attached in another chat's composer hours ago, not sent yet, is
   * referenced by nothing stored but is still the user's (durability audit); the sweep at startup takes the rest.
   */
  released?: { digests: readonly string[]; before: number };
}

/**
 * Attachment bytes, stored once under their sha256 in `<dataDir>/blobs/ab/cd/<digest>` (DESIGN.md §5-6), with
 * a `blobs` row each. Writes and GC run one at a time in this process, so GC never deletes a file a put is
 * reusing.
 */
/**
 * Blobs old enough to go (`?1`: the grace cutoff; `?2`, `?3`: a deleted conversation's blobs and its last update,
 * which go at once) that no stored request body, no turn and no kept draft references (a file attached and not
 * sent stays the user's while its draft holds it: drafts outlive the hour's grace since migration 0018). Pinned by an EXPLAIN QUERY PLAN test.
 */
export const GC_CANDIDATES_SQL = `SELECT digest FROM blobs WHERE (created_at <= ? OR (created_at <= ? AND digest IN (SELECT value FROM json_each(?))))
  AND NOT EXISTS (SELECT 1 FROM request_body_blobs WHERE request_body_blobs.blob_digest = blobs.digest)
  AND NOT EXISTS (SELECT 1 FROM turn_attachments WHERE turn_attachments.digest = blobs.digest)
  AND NOT EXISTS (SELECT 1 FROM draft_attachments WHERE draft_attachments.digest = blobs.digest)`;

export class BlobStore {
  private readonly root: string;
  private readonly maxBytes: number;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: Database,
    dataDir: string,
    options: BlobStoreOptions = {},
  ) {
    this.root = join(dataDir, 'blobs');
    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_ATTACHMENT_BYTES;
  }

  /** Where a blob's bytes live. */
  pathOf(digest: string): string {
    if (!DIGEST.test(digest)) throw new Error(`not a sha256 digest: ${digest}`);
    return join(this.root, digest.slice(0, 2), digest.slice(2, 4), digest);
  }

  /**
   * Checks and stores an attachment; returns its block. Refuses, with a message for the user, a file over the
   * size limit or whose bytes are not the type it claims (a `.png` that is not a PNG).
   */
  async put(bytes: Uint8Array, claim: { name: string; mime: string }, now: number): Promise<AttachmentBlock> {
    const checked = checkAttachment(bytes, claim, this.maxBytes);
    // A type no reader takes (.doc, .xlsx, .zip, a program) was stored, then refused on its chip once read: its bytes
    // stayed on disk for nothing (documents audit). Refused here, before a byte is written. Uploads only: an import
    // keeps what an older version took. The page refuses most such files before uploading them, in these words; this
    // check stays for a page that does not.
    if (checked.kind === 'document' && !extractorFor(checked.mime)) throw new UserFacingError('invalid-payload', unreadableTypeMessage(checked.name));
    // Read-only start (db/read-only-copy.ts): no row can be added, so no file is written either.
    if (readOnlyReason(this.db)) throw new UserFacingError('internal', `“${checked.name}” was not attached: ${READ_ONLY}`);
    try {
      const digest = await this.store(bytes, checked.mime, now);
      return { type: 'attachment', id: digest, ...checked };
    } catch (err) {
      // The generic "this was not saved" did not say which of several files it was (full-disk audit, round 9).
      const why = notStoredBecause(err);
      if (why) throw new UserFacingError('internal', `“${checked.name}” was not attached: ${why}`);
      throw err;
    }
  }

  /**
   * The block for an attachment a message refers to, as main measures it (issue 16): the renderer's block names
   * the digest and a display name; the size comes from the bytes, the media type is the block's own where the
   * bytes hold as it (readAs), and the kind follows the type, all checked against the bytes again. Refuses, for
   * the user, a digest it does not hold or bytes that do not match.
   */
  describe(claim: Pick<AttachmentBlock, 'id' | 'name' | 'pages'> & Partial<Pick<AttachmentBlock, 'mime'>>): AttachmentBlock {
    const name = displayName(claim.name);
    const bytes = DIGEST.test(claim.id) ? this.read(claim.id) : undefined;
    if (!bytes) throw new UserFacingError('not-found', `“${name}” is no longer stored; attach it again.`);
    const mime = this.readAs(claim, bytes);
    const mismatch = checkClaimedType(bytes, mime);
    if (mismatch) throw new UserFacingError('invalid-payload', `“${name}” cannot be sent: ${mismatch}.`);
    // The page range is the user's choice, not a claim about the bytes: it rides along (the encoder bounds it).
    return { type: 'attachment', id: claim.id, kind: attachmentKind(mime), name, mime, size: bytes.byteLength, ...(claim.pages ? { pages: claim.pages } : {}) };
  }

  /** Stores bytes already validated (import), file first, then the row; returns the digest. */
  store(bytes: Uint8Array, mime: string, now: number): Promise<string> {
    return this.serialized(async () => {
      const digest = await this.writeFile(bytes);
      this.recordRow(digest, bytes.byteLength, mime, now);
      return digest;
    });
  }

  /**
   * Writes the file only (idempotent); import calls it before the one transaction that adds the rows. `created`
   * says whether this call made the file, so a failed import removes what it added and nothing else.
   */
  writeFileOnly(bytes: Uint8Array, verifiedDigest?: string): Promise<{ digest: string; created: boolean }> {
    return this.serialized(() => this.writeFileReporting(bytes, verifiedDigest));
  }

  /** Removes a blob file that has no row (an import that failed after writing it); a file with a row stays. */
  removeIfUnrecorded(digest: string): Promise<void> {
    return this.serialized(async () => {
      if (this.db.prepare('SELECT 1 FROM blobs WHERE digest = ?').get(digest)) return;
      await rm(this.pathOf(digest), { force: true });
    });
  }

  /** Adds or refreshes a blob's row; refreshing restarts its GC grace period. */
  recordRow(digest: string, size: number, mime: string, now: number): void {
    this.db
      .prepare(
        `INSERT INTO blobs (digest, size, mime, created_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (digest) DO UPDATE SET created_at = max(created_at, excluded.created_at)`,
      )
      .run(digest, size, mime, now);
  }

  /** The bytes of a blob, or undefined when it is gone. Synchronous: dialects resolve attachments while encoding. */
  read(digest: string): Uint8Array | undefined {
    try {
      return readFileSync(this.pathOf(digest));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  /**
   * The type an attachment is read as (attachments audit #3). The same bytes attached as `page.html` and again as
   * `page-source.txt` share one blob (and its row keeps the first type), yet each block is read as its own type:
   * the markup stripped for the first, kept as typed for the second. A block's type is never taken on its word: it
   * holds only where the bytes pass the upload's checks for it (bytesHoldAs); otherwise the type recorded when the
   * bytes were stored, else their signature.
   */
  readAs(block: Partial<Pick<AttachmentBlock, 'mime'>> & Pick<AttachmentBlock, 'id'>, bytes: Uint8Array): string {
    const own = block.mime?.toLowerCase();
    if (own !== undefined && bytesHoldAs(bytes, own)) return own;
    return this.mimeOf(block.id) ?? sniffMime(bytes) ?? 'application/octet-stream';
  }

  /** Whether a blob is stored (its row and its file), without reading its bytes. */
  has(digest: string): boolean {
    return DIGEST.test(digest) && this.mimeOf(digest) !== undefined && existsSync(this.pathOf(digest));
  }

  mimeOf(digest: string): string | undefined {
    return (this.db.prepare('SELECT mime FROM blobs WHERE digest = ?').get(digest) as { mime: string } | undefined)?.mime;
  }

  /**
   * Removes blobs that no turn's attachment block and no stored request body references. Both are looked up by
   * index: a turn's attachments in turn_attachments (kept by triggers, migration 0010), not read from every turn's
   * blocks; a request body goes with its last step (a trigger, migration 0011), not in a sweep of every body here.
   * Rows go first, in one transaction; files after, so a crash can only leave a stray file, never a row without
   * its bytes.
   */
  gc(options: GcOptions): Promise<{ removed: string[] }> {
    const cutoff = options.now - (options.graceMs ?? 60 * 60 * 1000);
    // Older than every row: with `released`, no blob goes for its age alone.
    const ageCutoff = options.released ? -1 : cutoff;
    // Chats open read-only from a copy (db/read-only-copy.ts): nothing is collected until a start that opens the file.
    // The copy lacks what the last run left in firebrand.db-wal where that could not be read (db/wal-replay.ts), so a
    // file the copy does not know may still be the user's; and no file can be removed for a row the copy cannot drop.
    if (readOnlyReason(this.db)) return Promise.resolve({ removed: [] });
    return this.serialized(async () => {
      const removed = this.db.transaction(() => {
        const rows = this.db
          .prepare(GC_CANDIDATES_SQL)
          .all(ageCutoff, options.released?.before ?? cutoff, JSON.stringify(options.released?.digests ?? [])) as { digest: string }[];
        const del = this.db.prepare('DELETE FROM blobs WHERE digest = ?');
        for (const r of rows) del.run(r.digest);
        return rows.map((r) => r.digest);
      })();
      for (const digest of removed) await rm(this.pathOf(digest), { force: true });
      const orphans = await this.sweepOrphans(cutoff);
      return { removed: [...removed, ...orphans] };
    });
  }

  /**
   * Files with no row: an import that died between writing its files and committing its rows, or a write cut
   * off before its rename (`.tmp-*`), or a sidecar (a document's extracted text) whose blob went while the app
   * was killed before the sidecar did: the text of a deleted chat's document stayed on disk for good. Only files
   * older than the grace cutoff go, so a put or an import that is between its file and its row right now keeps its
   * file. Runs inside the GC's turn of the queue.
   */
  private async sweepOrphans(cutoff: number): Promise<string[]> {
    const swept: string[] = [];
    const known = this.db.prepare('SELECT 1 FROM blobs WHERE digest = ?');
    for (const a of await listDir(this.root)) {
      for (const b of await listDir(join(this.root, a))) {
        const dir = join(this.root, a, b);
        for (const name of await listDir(dir)) {
          const isBlob = DIGEST.test(name);
          const sidecarOf = SIDECAR.exec(name)?.[1];
          if (!isBlob && !sidecarOf && !TEMP.test(name)) continue;
          if (known.get(sidecarOf ?? name)) continue;
          const info = await stat(join(dir, name)).catch(() => undefined);
          if (!info?.isFile() || info.mtimeMs > cutoff) continue;
          await rm(join(dir, name), { force: true });
          if (isBlob) swept.push(name);
        }
      }
    }
    return swept;
  }

  private serialized<T>(job: () => Promise<T>): Promise<T> {
    const run = this.queue.then(job, job);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Atomic: temp file in the same folder, fsync, rename, fsync the folder. An existing file of the right size is reused. */
  private async writeFile(bytes: Uint8Array): Promise<string> {
    return (await this.writeFileReporting(bytes)).digest;
  }

  /** `verifiedDigest`: the sha256 a worker already checked (import), so this thread does not hash again. */
  private async writeFileReporting(bytes: Uint8Array, verifiedDigest?: string): Promise<{ digest: string; created: boolean }> {
    const digest = verifiedDigest ?? sha256Hex(bytes);
    const target = this.pathOf(digest);
    const existing = await stat(target).catch(() => undefined);
    if (existing?.size === bytes.byteLength) return { digest, created: false };
    // Private like the rest of the data folder (issue 15): attachments are the user's files.
    const dir = await writeFileAtomic(target, bytes);
    await syncDir(dir);
    return { digest, created: true };
  }
}

async function listDir(dir: string): Promise<string[]> {
  return readdir(dir).catch(() => []);
}

/** Makes the rename durable; Windows cannot open a folder for fsync, and NTFS journals renames anyway. */
async function syncDir(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

const READ_ONLY = 'the disk is full, so your chats are open read-only. Free some space on that disk, then start Firebrand again.';

/** Why a file could not be stored, for the user, where they can fix it: a full disk, or the read-only start. */
function notStoredBecause(err: unknown): string | undefined {
  if (isDiskFull(err)) return 'the disk is full. Free some space, then press Retry to attach it again.';
  if ((err as { code?: unknown } | null)?.code === 'SQLITE_READONLY') return READ_ONLY;
  return undefined;
}
