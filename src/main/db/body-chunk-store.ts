import { createHash } from 'node:crypto';
import type { Database, Statement } from 'better-sqlite3';

/**
 * The chunks request bodies are cut into (migration 0015), each stored once by its sha256 and named by its id in
 * the templates that use it. A chunk's `bodies` count is kept by triggers from the templates themselves, and the
 * chunk goes with the last body that names it.
 */
export class BodyChunkStore {
  private readonly find: Statement;
  private readonly insert: Statement;
  private readonly bytes: Statement;

  constructor(db: Database) {
    this.find = db.prepare('SELECT id FROM body_chunks WHERE digest = ?').pluck();
    this.insert = db.prepare('INSERT INTO body_chunks (digest, bytes) VALUES (?, ?) RETURNING id').pluck();
    this.bytes = db.prepare('SELECT bytes FROM body_chunks WHERE id = ?').pluck();
  }

  /**
   * The id of the chunk holding `bytes`, stored now if no body has it. Call it inside the transaction that stores
   * the body naming it: until then the chunk counts no body, and a chunk that ends up named by none is never removed.
   */
  write(bytes: Buffer): number {
    const digest = createHash('sha256').update(bytes).digest();
    return ((this.find.get(digest) as number | undefined) ?? this.insert.get(digest, bytes)) as number;
  }

  /** A stored chunk's bytes; throws when it is missing (a body naming it holds it, so that is damage). */
  read(id: number, body: string): Buffer {
    const bytes = this.bytes.get(id) as Buffer | undefined;
    if (!bytes) throw new Error(`request body ${body} references missing chunk ${id}`);
    return bytes;
  }
}
