/**
 * When attachment bytes are collected (DESIGN.md §6): once at startup, after a delay so it never slows the first
 * window, and right after a conversation is deleted for good (its unique blobs go then; shared ones stay,
 * because another turn still references them).
 */
import type { Database } from 'better-sqlite3';
import type { BlobStore } from './blob-store';

/** Long enough that startup (window, first model list) is over; GC then runs in the background. */
export const STARTUP_GC_DELAY_MS = 30_000;

/** The attachment digests a conversation's turns reference, and when it last changed. */
export function conversationBlobs(db: Database, conversationId: string): { digests: string[]; before: number } | undefined {
  const conv = db.prepare('SELECT updated_at FROM conversations WHERE id = ?').get(conversationId) as { updated_at: number } | undefined;
  if (!conv) return undefined;
  const rows = db
    .prepare(
      `SELECT DISTINCT json_extract(j.value, '$.id') AS digest FROM turns, json_each(turns.blocks) AS j
       WHERE turns.conversation_id = ? AND turns.blocks LIKE '%"attachment"%' AND json_extract(j.value, '$.type') = 'attachment'`,
    )
    .all(conversationId) as { digest: unknown }[];
  return { digests: rows.flatMap((r) => (typeof r.digest === 'string' ? [r.digest] : [])), before: conv.updated_at };
}

/** What else goes when blobs go: their sidecars (extracted text, scaled-image records). */
export type OnRemoved = (digests: readonly string[]) => Promise<void>;

/** Schedules the startup GC; returns a cancel for shutdown. A failure is logged, never thrown. */
export function scheduleStartupGc(blobs: BlobStore, log: (m: string) => void, now: () => number, delayMs = STARTUP_GC_DELAY_MS, onRemoved?: OnRemoved): () => void {
  const timer = setTimeout(() => void collect(blobs, log, { now: now() }, onRemoved), delayMs);
  timer.unref();
  return () => clearTimeout(timer);
}

export async function collect(blobs: BlobStore, log: (m: string) => void, options: Parameters<BlobStore['gc']>[0], onRemoved?: OnRemoved): Promise<string[]> {
  try {
    const { removed } = await blobs.gc(options);
    await onRemoved?.(removed);
    if (removed.length > 0) log(`blobs: removed ${removed.length} attachment(s) no message uses any more`);
    return removed;
  } catch (err) {
    log(`blobs: collection failed: ${err instanceof Error ? err.message : String(err)}`);
    return [];
  }
}
