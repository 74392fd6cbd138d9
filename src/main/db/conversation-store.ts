import type { Database, Statement } from 'better-sqlite3';
import { CONVERSATION_PAGE_DEFAULT, type ConversationCursor, type ConversationPage, type ConversationSummary } from '../../shared/ipc';
import type { Block, Turn } from '../../shared/turn';
import type { JsonObject } from '../../shared/json';
import { UserFacingError } from '../errors';
import { toTurn, TURN_COLUMNS, turnParams, type TurnRow } from './turn-rows';
import { deleteMakingRoom, deleteWhole } from './delete-making-room';
import { NOT_BEING_DELETED, tidyAfterDelete, withDeletesOf } from './delete-intent';
import type { DiskReserve } from './disk-reserve';

interface ConversationRow {
  id: string;
  title: string;
  model: string | null;
  active_leaf_id: string | null;
  created_at: number;
  updated_at: number;
}

/** A conversation row in full: what export writes and import restores. */
export interface ConversationRecord extends ConversationSummary {
  activeLeafId: string | null;
  createdAt: number;
}

/** A turn's place among its siblings, for the `< 2/3 >` switcher; `index` is 0-based. */
export interface SiblingPosition {
  ids: string[];
  index: number;
}

function toSummary(row: ConversationRow): ConversationSummary {
  return { id: row.id, title: row.title, updatedAt: row.updated_at, model: row.model };
}

function toRecord(row: ConversationRow): ConversationRecord {
  return { ...toSummary(row), activeLeafId: row.active_leaf_id, createdAt: row.created_at };
}

/** The hot queries, exported so tests pin their plans with EXPLAIN QUERY PLAN. */
export const HOT_SQL = {
  // Neither lists a chat whose delete is under way (./delete-intent.ts): one primary-key look-up per row shown.
  conversationsByRecency: `SELECT * FROM conversations WHERE ${NOT_BEING_DELETED} ORDER BY updated_at DESC, id DESC LIMIT @limit`,
  // The page after `(updated_at, id)`: a range of the index, not an OR that would scan it from the start.
  conversationsBefore:
    `SELECT * FROM conversations WHERE updated_at <= @updatedAt AND (updated_at < @updatedAt OR id < @id) AND ${NOT_BEING_DELETED} ORDER BY updated_at DESC, id DESC LIMIT @limit`,
  turnsOfConversation: 'SELECT * FROM turns WHERE conversation_id = ? ORDER BY created_at, id',
  // Opening a chat asks this once per turn of its branch. Without the unary `+`, SQLite (no ANALYZE stats)
  // picks turns_by_conversation and scans the whole conversation each time: 0.4 ms x 2,000 turns = 0.8 s to
  // open a long chat (bench/long-chat.bench.ts). A parent has few children, so its index is the right one.
  siblingsOf: 'SELECT id FROM turns WHERE parent_id IS @parent AND +conversation_id = @conversation ORDER BY created_at, id',
} as const;

/** Conversations and their turns: the source of truth the renderer only mirrors. */
export class ConversationStore {
  private readonly stmts: Record<string, Statement | undefined>;

  constructor(
    private readonly db: Database,
    /** Room kept back for deleting chats on a full disk (services: the data folder's); none in most tests. */
    private readonly reserve?: DiskReserve,
  ) {
    const leftAt = (db.prepare('SELECT 1 FROM pragma_table_info(?) WHERE name = ?').get('turns', 'left_at') as unknown) !== undefined;
    const seen = (t: string) => (leftAt ? `MAX(${t}.created_at, COALESCE(${t}.left_at, 0))` : `${t}.created_at`);
    this.stmts = {
      insertConversation: db.prepare(
        'INSERT INTO conversations (id, title, model, active_leaf_id, created_at, updated_at) VALUES (@id, @title, @model, @activeLeafId, @createdAt, @updatedAt)',
      ),
      list: db.prepare(withDeletesOf(db, HOT_SQL.conversationsByRecency)),
      listBefore: db.prepare(withDeletesOf(db, HOT_SQL.conversationsBefore)),
      // The chats listed before `(updated_at, id)`: the index's range above it, as conversationsBefore reads below.
      countAbove: db.prepare(
        withDeletesOf(db, `SELECT COUNT(*) AS n FROM conversations WHERE updated_at >= @updatedAt AND (updated_at > @updatedAt OR id > @id) AND ${NOT_BEING_DELETED}`),
      ),
      get: db.prepare('SELECT * FROM conversations WHERE id = ?'),
      // A chat whose delete is under way is not opened (./delete-intent.ts); import and export read it by the record.
      getShown: db.prepare(withDeletesOf(db, `SELECT * FROM conversations WHERE id = ? AND ${NOT_BEING_DELETED}`)),
      // A rename is housekeeping, not activity: the chat keeps its place in the list (conversations audit D5: it
      // jumped to the top), as looking at an old branch does.
      rename: db.prepare('UPDATE conversations SET title = @title WHERE id = @id'),
      touch: db.prepare('UPDATE conversations SET updated_at = @now, active_leaf_id = @leaf, model = COALESCE(@model, model) WHERE id = @id'),
      setLeaf: db.prepare('UPDATE conversations SET active_leaf_id = @leaf WHERE id = @id'),
      // The version on screen is being left: when, so a switch back under it opens it again (migration 0017). A
      // store on a database from before it (the migration tests' older versions) does without, as before.
      // A turn added under the leaf on screen (a message, the next step) leaves nothing: that leaf is a leaf no more.
      leaveLeaf: leftAt ? db.prepare('UPDATE turns SET left_at = @now WHERE id = (SELECT active_leaf_id FROM conversations WHERE id = @id) AND id IS NOT @parent') : undefined,
      reparent: db.prepare('UPDATE turns SET parent_id = @parent WHERE id = @id'),
      touchIfTip: db.prepare(
        `UPDATE conversations SET updated_at = @now, model = COALESCE(@model, model),
         active_leaf_id = CASE WHEN active_leaf_id IS @parent THEN @leaf ELSE active_leaf_id END WHERE id = @id`,
      ),
      insertTurn: db.prepare(`INSERT INTO turns (${TURN_COLUMNS}) VALUES (${TURN_COLUMNS.split(', ').map((c) => `@${c}`).join(', ')})`),
      updateTurn: db.prepare(
        `UPDATE turns SET blocks = @blocks, text = @text, meta = @meta, status = @status, stop = @stop, wire_reason = @wire_reason,
         usage = @usage, model = @model, error = @error WHERE id = @id`,
      ),
      // A branch is read as the conversation's rows (one index range, without the search text column) walked
      // from the leaf in memory: on a 2,000-turn chat this is several times cheaper than a recursive CTE.
      conversationOf: db.prepare('SELECT conversation_id FROM turns WHERE id = ?'),
      rowsForBranch: db.prepare(`SELECT ${TURN_COLUMNS.replace(' text,', '')} FROM turns WHERE conversation_id = ?`),
      // A window of a branch (a long chat's latest turns, an older page) walks the links alone and reads the rows
      // of its turns only: reading and parsing every row of a 2,000-turn chat to send 12 of them held serve mode's
      // event loop (and its collector) on every open (bench/long-chat).
      linksForBranch: db.prepare('SELECT id, parent_id FROM turns WHERE conversation_id = ?'),
      rowForBranch: db.prepare(`SELECT ${TURN_COLUMNS.replace(' text,', '')} FROM turns WHERE id = ?`),
      turnsOf: db.prepare(HOT_SQL.turnsOfConversation),
      getTurn: db.prepare('SELECT * FROM turns WHERE id = ?'),
      siblings: db.prepare(HOT_SQL.siblingsOf),
      childIds: db.prepare('SELECT id, parent_id FROM turns WHERE conversation_id = ? ORDER BY created_at, id'),
      // The leaf on screen last: a leaf is on screen from its creation until it is left (left_at). Children are
      // always newer than their parent, so the newest descendant is a leaf; depth breaks equal clocks.
      latestLeaf: db.prepare(
        `WITH RECURSIVE sub(id, depth, seen) AS (
           SELECT id, 0, ${seen('turns')} FROM turns WHERE id = ?
           UNION ALL
           SELECT t.id, s.depth + 1, ${seen('t')} FROM turns t JOIN sub s ON t.parent_id = s.id
         )
         SELECT id FROM sub WHERE NOT EXISTS (SELECT 1 FROM turns c WHERE c.parent_id = sub.id)
         ORDER BY seen DESC, depth DESC, id DESC LIMIT 1`,
      ),
    };
  }

  createConversation(id: string, title: string, model: string | null, now: number): ConversationSummary {
    this.stmts.insertConversation!.run({ id, title, model, activeLeafId: null, createdAt: now, updatedAt: now });
    return { id, title, model, updatedAt: now };
  }

  /**
   * A page of conversations, the most recently updated first (the id breaks ties), from the start or after
   * `before` (the last one of the page before). Both queries are pinned by EXPLAIN QUERY PLAN tests.
   */
  listConversations(page: ConversationPage = {}): ConversationSummary[] {
    const limit = page.limit ?? CONVERSATION_PAGE_DEFAULT;
    const rows = page.before
      ? this.stmts.listBefore!.all({ updatedAt: page.before.updatedAt, id: page.before.id, limit })
      : this.stmts.list!.all({ limit });
    return (rows as ConversationRow[]).map(toSummary);
  }

  /** How many conversations `listConversations` lists before the one at `at` (a range of its index, not a scan). */
  countListedAbove(at: ConversationCursor): number {
    return (this.stmts.countAbove!.get({ updatedAt: at.updatedAt, id: at.id }) as { n: number }).n;
  }

  getConversation(id: string): (ConversationSummary & { activeLeafId: string | null }) | undefined {
    const row = this.stmts.getShown!.get(id) as ConversationRow | undefined;
    return row ? { ...toSummary(row), activeLeafId: row.active_leaf_id } : undefined;
  }

  getConversationRecord(id: string): ConversationRecord | undefined {
    const row = this.stmts.get!.get(id) as ConversationRow | undefined;
    return row ? toRecord(row) : undefined;
  }

  renameConversation(id: string, title: string): boolean {
    return this.stmts.rename!.run({ id, title }).changes > 0;
  }

  /**
   * Deletes the conversation with its turns and steps (cascade), and gives the pages they took back to the disk
   * (./free-space.ts); blobs they used are left to `BlobStore.gc`.
   */
  deleteConversation(id: string): boolean {
    const { deleted, tight } = deleteMakingRoom(this.db, id, () => deleteWhole(this.db, id), this.reserve);
    if (deleted) tidyAfterDelete(this.db, this.reserve, tight);
    return deleted;
  }

  /** Whether a user message was added to the conversation after `time` (ms, main's clock, as `updatedAt` is). */
  userWroteAfter(id: string, time: number): boolean {
    return this.db.prepare("SELECT 1 FROM turns WHERE conversation_id = ? AND role = 'user' AND created_at > ? LIMIT 1").get(id, time) !== undefined;
  }

  /** Adds a turn and makes it the conversation's active leaf, in one transaction. */
  appendTurn(turn: Turn, now: number): void {
    this.db.transaction(() => {
      // A regenerate or an edit leaves the version on screen for a new one beside it.
      this.stmts.leaveLeaf?.run({ id: turn.conversationId, now, parent: turn.parentId });
      this.stmts.insertTurn!.run(turnParams(turn));
      this.stmts.touch!.run({ id: turn.conversationId, leaf: turn.id, model: turn.model ?? null, now });
    })();
  }

  /**
   * Adds a turn a running answer wrote on its own (the next step, a tool turn, a card). It becomes the active leaf
   * only while its parent is one: a user who moved to another branch meanwhile stays there (issue 13).
   */
  appendRunTurn(turn: Turn, now: number): void {
    this.db.transaction(() => {
      this.stmts.insertTurn!.run(turnParams(turn));
      this.stmts.touchIfTip!.run({ id: turn.conversationId, parent: turn.parentId, leaf: turn.id, model: turn.model ?? null, now });
    })();
  }

  /**
   * Puts `card` between `childId` and its parent (a summary written on its own before an answer, issue 21): the
   * card takes the child's place under the parent and the child hangs below it. Returns the child as moved.
   */
  insertAbove(childId: string, card: Turn): Turn {
    const child = this.requireTurn(childId);
    this.db.transaction(() => {
      this.stmts.insertTurn!.run(turnParams({ ...card, parentId: child.parentId }));
      this.stmts.reparent!.run({ id: childId, parent: card.id });
    })();
    return { ...child, parentId: card.id };
  }

  updateTurn(turn: Turn): void {
    this.stmts.updateTurn!.run(turnParams(turn));
  }

  getTurn(id: string): Turn | undefined {
    const row = this.stmts.getTurn!.get(id) as TurnRow | undefined;
    return row ? toTurn(row) : undefined;
  }

  /**
   * The turns from the root down to `leafId`; with `tail`, only the last that many; with `before` (a turn of the
   * branch), only the turns older than it (the last `tail` of them). Only the turns returned are read in full.
   * `rest.older` receives whether the branch holds turns older than those returned (none when `before` is not on
   * the branch).
   */
  branch(leafId: string, window: { tail?: number | undefined; before?: string | undefined } = {}, rest?: { older: boolean }): Turn[] {
    const owner = this.stmts.conversationOf!.get(leafId) as { conversation_id: string } | undefined;
    if (!owner) return [];
    const { tail, before } = window;
    if (tail === undefined && before === undefined) {
      const byId = new Map<string, TurnRow>();
      for (const row of this.stmts.rowsForBranch!.all(owner.conversation_id) as TurnRow[]) byId.set(row.id, row);
      const path = walkToRoot(byId, leafId);
      if (rest) rest.older = false;
      return path.reverse().map(toTurn);
    }
    if (before === undefined) return this.lastTurns(leafId, owner.conversation_id, tail!, rest);
    const links = new Map<string, { id: string; parent_id: string | null }>();
    for (const row of this.stmts.linksForBranch!.all(owner.conversation_id) as { id: string; parent_id: string | null }[]) links.set(row.id, row);
    // Leaf first: the turns older than `before` start right after it.
    let path = walkToRoot(links, leafId).map((l) => l.id);
    const at = path.indexOf(before);
    path = at < 0 ? [] : path.slice(at + 1);
    if (rest) rest.older = tail !== undefined && tail < path.length;
    const ids = tail !== undefined && tail < path.length ? path.slice(0, tail) : path;
    return ids.reverse().map((id) => toTurn(this.stmts.rowForBranch!.get(id) as TurnRow));
  }

  /**
   * The last `tail` turns of the branch that ends at `leafId`, read from the leaf up, one row each: a chat opens with
   * its last turns. Reading the links of the whole conversation first (2,000 rows for a long chat, and the same again
   * for the siblings) took main 10-12 ms of every open of one (bench/long-chat), while the page waited.
   */
  private lastTurns(leafId: string, conversationId: string, tail: number, rest?: { older: boolean }): Turn[] {
    const rows: TurnRow[] = [];
    let id: string | null = leafId;
    for (; id !== null && rows.length < tail; ) {
      const row = this.stmts.rowForBranch!.get(id) as TurnRow | undefined;
      if (!row || row.conversation_id !== conversationId) break;
      rows.push(row);
      id = row.parent_id;
    }
    if (rest) rest.older = id !== null && rows.length === tail;
    return rows.reverse().map(toTurn);
  }

  /**
   * The children of each of `parents` (`null` for the roots), oldest first: the siblings of a window's turns, one
   * look-up by the parent index each, where childrenByParent reads the whole conversation.
   */
  childrenOf(conversationId: string, parents: Iterable<string | null>): Map<string | null, string[]> {
    const out = new Map<string | null, string[]>();
    for (const parent of parents) {
      if (out.has(parent)) continue;
      const rows = this.stmts.siblings!.all({ parent, conversation: conversationId }) as { id: string }[];
      out.set(parent, rows.map((r) => r.id));
    }
    return out;
  }

  /** Every turn of a conversation, every branch, oldest first (parents before children). */
  listTurns(conversationId: string): Turn[] {
    return (this.stmts.turnsOf!.all(conversationId) as TurnRow[]).map(toTurn);
  }

  /**
   * Edit-and-resend: the edited message becomes a new user sibling of `turnId` (same parent), and the active
   * leaf. The original stays, reachable through the sibling switcher. The caller then appends the answer.
   */
  editAndResend(turnId: string, edited: { id: string; blocks: Block[]; createdAt: number }, now: number): Turn {
    const original = this.requireTurn(turnId);
    if (original.role !== 'user') throw new UserFacingError('invalid-payload', 'Only your own messages can be edited.');
    const turn: Turn = {
      id: edited.id,
      conversationId: original.conversationId,
      parentId: original.parentId,
      role: 'user',
      blocks: edited.blocks,
      meta: {},
      status: 'done',
      createdAt: edited.createdAt,
    };
    this.appendTurn(turn, now);
    return turn;
  }

  /** Regenerate: a new, empty, streaming assistant sibling of `turnId`, made the active leaf. */
  regenerate(turnId: string, fresh: { id: string; model?: string; meta?: JsonObject; createdAt: number }, now: number): Turn {
    const original = this.requireTurn(turnId);
    if (original.role !== 'assistant') throw new UserFacingError('invalid-payload', 'Only an answer can be regenerated.');
    const turn: Turn = {
      id: fresh.id,
      conversationId: original.conversationId,
      parentId: original.parentId,
      role: 'assistant',
      blocks: [],
      meta: fresh.meta ?? {},
      status: 'streaming',
      createdAt: fresh.createdAt,
    };
    const model = fresh.model ?? original.model;
    if (model !== undefined) turn.model = model;
    this.appendTurn(turn, now);
    return turn;
  }

  /** `turnId` and its siblings (same parent, same conversation), oldest first, with its own position. */
  siblings(turnId: string): SiblingPosition {
    const turn = this.requireTurn(turnId);
    const rows = this.stmts.siblings!.all({ parent: turn.parentId, conversation: turn.conversationId }) as { id: string }[];
    const ids = rows.map((r) => r.id);
    return { ids, index: ids.indexOf(turnId) };
  }

  /**
   * Every parent's children in one read, oldest first (keyed by parent id, `null` for roots): opening a chat
   * needs the siblings of each turn on its branch, and one query per turn made a 2,000-turn chat slow to open.
   */
  childrenByParent(conversationId: string): Map<string | null, string[]> {
    const out = new Map<string | null, string[]>();
    for (const row of this.stmts.childIds!.all(conversationId) as { id: string; parent_id: string | null }[]) {
      const list = out.get(row.parent_id);
      if (list) list.push(row.id);
      else out.set(row.parent_id, [row.id]);
    }
    return out;
  }

  /**
   * Switches to the branch through `turnId`: the active leaf becomes the leaf under it that was on screen last (the
   * newest one was shown before, though the user had moved to another version there: conversations audit D4). Does
   * not touch `updated_at`: looking at an old branch is not new activity.
   */
  switchBranch(turnId: string, now = Date.now()): string {
    const turn = this.requireTurn(turnId);
    return this.db.transaction(() => {
      this.stmts.leaveLeaf?.run({ id: turn.conversationId, now, parent: null });
      const leaf = (this.stmts.latestLeaf!.get(turnId) as { id: string } | undefined)?.id ?? turnId;
      this.stmts.setLeaf!.run({ id: turn.conversationId, leaf });
      return leaf;
    })();
  }

  /** Restores a whole conversation (import); parents must precede children. Atomic on its own or in a caller's transaction. */
  restoreConversation(record: ConversationRecord, turns: readonly Turn[]): void {
    this.db.transaction(() => {
      const { activeLeafId, ...rest } = record;
      this.stmts.insertConversation!.run({ ...rest, activeLeafId: null });
      for (const turn of turns) this.stmts.insertTurn!.run(turnParams(turn));
      this.stmts.setLeaf!.run({ id: record.id, leaf: activeLeafId });
    })();
  }

  private requireTurn(id: string): Turn {
    const turn = this.getTurn(id);
    if (!turn) throw new UserFacingError('not-found', 'That message no longer exists.');
    return turn;
  }
}

/** `leafId` and its ancestors, leaf first; bounded by the row count, so a corrupt parent cycle cannot loop forever. */
function walkToRoot<T extends { parent_id: string | null }>(byId: ReadonlyMap<string, T>, leafId: string): T[] {
  const path: T[] = [];
  for (let row = byId.get(leafId); row !== undefined && path.length <= byId.size; row = row.parent_id === null ? undefined : byId.get(row.parent_id)) {
    path.push(row);
  }
  return path;
}
