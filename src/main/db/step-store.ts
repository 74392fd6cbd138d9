import type { Database, Statement } from 'better-sqlite3';
import type { JsonObject } from '../../shared/json';
import type { Usage } from '../../shared/turn';
import { BodyChunkStore } from './body-chunk-store';
import { renderBody, sha256Hex, templateBody, type BodySegment } from './request-body';

/** Reads a blob's bytes by sha256; the blob store implements it. */
export type BlobReader = (digest: string) => Uint8Array | undefined;

/** What the engine knows before the socket opens. No headers: secrets cannot reach this table. */
export interface StepBegin {
  id: string;
  turnId: string | null;
  conversationId: string;
  stepIndex: number;
  /** The exact request body; its sha256 is the request digest. */
  body: string | Uint8Array;
  /** Digests of the attachments the dialect inlined in `body` as base64; they are stored as references. */
  attachments?: readonly string[];
  dialect: string;
  /** The request URL; any credentials, query and fragment are dropped before it is stored. */
  endpoint: string;
  model: string;
  contextWindow?: number;
  tokenEstimate?: number;
  now: number;
}

/** What the step ended with. */
export interface StepFinish {
  wireReason: string | null;
  stop: string;
  usage?: Usage;
  timings?: JsonObject;
  error?: string;
  now: number;
}

/** One request record as stored. */
export interface StepRecord {
  id: string;
  turnId: string | null;
  conversationId: string;
  stepIndex: number;
  requestDigest: string;
  dialect: string;
  endpoint: string;
  model: string;
  contextWindow: number | null;
  tokenEstimate: number | null;
  wireReason: string | null;
  stop: string | null;
  usage: Usage | null;
  timings: JsonObject | null;
  error: string | null;
  createdAt: number;
  finishedAt: number | null;
}

interface StepRow {
  id: string;
  turn_id: string | null;
  conversation_id: string;
  step_index: number;
  request_digest: string;
  dialect: string;
  endpoint: string;
  model: string;
  context_window: number | null;
  token_estimate: number | null;
  wire_reason: string | null;
  stop: string | null;
  usage: string | null;
  timings: string | null;
  error: string | null;
  created_at: number;
  finished_at: number | null;
}

/** Request records (steps): one row per model request, with its body stored once by digest (DESIGN.md §2). */
export class StepStore {
  private readonly stmts: Record<string, Statement>;
  private readonly chunks: BodyChunkStore;

  constructor(
    private readonly db: Database,
    private readonly readBlob: BlobReader,
  ) {
    this.chunks = new BodyChunkStore(db);
    this.stmts = {
      hasBody: db.prepare('SELECT 1 FROM request_bodies WHERE digest = ?'),
      insertBody: db.prepare(
        'INSERT INTO request_bodies (digest, template, size, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (digest) DO NOTHING',
      ),
      insertBodyBlob: db.prepare('INSERT OR IGNORE INTO request_body_blobs (body_digest, blob_digest) VALUES (?, ?)'),
      insertStep: db.prepare(
        `INSERT INTO steps (id, turn_id, conversation_id, step_index, request_digest, dialect, endpoint, model, context_window, token_estimate, created_at)
         VALUES (@id, @turnId, @conversationId, @stepIndex, @digest, @dialect, @endpoint, @model, @contextWindow, @tokenEstimate, @now)`,
      ),
      finish: db.prepare(
        `UPDATE steps SET wire_reason = @wireReason, stop = @stop, usage = @usage, timings = @timings, error = @error, finished_at = @now
         WHERE id = @id`,
      ),
      get: db.prepare('SELECT * FROM steps WHERE id = ?'),
      forTurn: db.prepare('SELECT * FROM steps WHERE turn_id = ? ORDER BY step_index'),
      body: db.prepare('SELECT template FROM request_bodies WHERE digest = ?'),
    };
  }

  /**
   * Records a request before it is sent, synchronously and committed, so a crash mid-request still leaves the
   * record of what was asked. Returns the step id.
   */
  begin(step: StepBegin): string {
    const bytes = typeof step.body === 'string' ? Buffer.from(step.body, 'utf8') : step.body;
    const digest = sha256Hex(bytes);
    const inlined = new Map<string, Uint8Array>();
    for (const d of step.attachments ?? []) {
      const blob = this.readBlob(d);
      if (blob) inlined.set(d, blob);
    }
    this.db.transaction(() => {
      // A body stored already (a retry; or stored before 0015, whole) is not cut again: its chunks would count no body.
      if (!this.stmts.hasBody!.get(digest)) {
        const template = templateBody(bytes, inlined, (chunk) => this.chunks.write(chunk));
        this.stmts.insertBody!.run(digest, JSON.stringify(template.segments), bytes.byteLength, step.now);
        for (const blob of template.blobs) this.stmts.insertBodyBlob!.run(digest, blob);
      }
      this.stmts.insertStep!.run({
        id: step.id,
        turnId: step.turnId,
        conversationId: step.conversationId,
        stepIndex: step.stepIndex,
        digest,
        dialect: step.dialect,
        endpoint: redactEndpoint(step.endpoint),
        model: step.model,
        contextWindow: step.contextWindow ?? null,
        tokenEstimate: step.tokenEstimate ?? null,
        now: step.now,
      });
    })();
    return step.id;
  }

  finish(stepId: string, result: StepFinish): boolean {
    return (
      this.stmts.finish!.run({
        id: stepId,
        wireReason: result.wireReason,
        stop: result.stop,
        usage: result.usage ? JSON.stringify(result.usage) : null,
        timings: result.timings ? JSON.stringify(result.timings) : null,
        error: result.error ?? null,
        now: result.now,
      }).changes > 0
    );
  }

  get(stepId: string): StepRecord | undefined {
    const row = this.stmts.get!.get(stepId) as StepRow | undefined;
    return row ? toRecord(row) : undefined;
  }

  listForTurn(turnId: string): StepRecord[] {
    return (this.stmts.forTurn!.all(turnId) as StepRow[]).map(toRecord);
  }

  /** The exact bytes of a stored request body (same sha256), rebuilt from its template, its chunks and the blob store. */
  rehydrateBody(digest: string): Buffer | undefined {
    const row = this.stmts.body!.get(digest) as { template: string } | undefined;
    if (!row) return undefined;
    const segments = JSON.parse(row.template) as BodySegment[];
    const readBlob = (d: string) => {
      const blob = this.readBlob(d);
      if (!blob) throw new Error(`request body ${digest} references missing blob ${d}`);
      return blob;
    };
    return renderBody(segments, readBlob, (id) => this.chunks.read(id, digest));
  }
}

/** Drops user:password, query and fragment: keys ride there on some servers, and the path is what a record needs. */
export function redactEndpoint(endpoint: string): string {
  try {
    const url = new URL(endpoint);
    url.username = '';
    url.password = '';
    url.search = '';
    url.hash = '';
    return url.toString();
  } catch {
    return '(unparseable endpoint)';
  }
}

function toRecord(row: StepRow): StepRecord {
  return {
    id: row.id,
    turnId: row.turn_id,
    conversationId: row.conversation_id,
    stepIndex: row.step_index,
    requestDigest: row.request_digest,
    dialect: row.dialect,
    endpoint: row.endpoint,
    model: row.model,
    contextWindow: row.context_window,
    tokenEstimate: row.token_estimate,
    wireReason: row.wire_reason,
    stop: row.stop,
    usage: row.usage === null ? null : (JSON.parse(row.usage) as Usage),
    timings: row.timings === null ? null : (JSON.parse(row.timings) as JsonObject),
    error: row.error,
    createdAt: row.created_at,
    finishedAt: row.finished_at,
  };
}
