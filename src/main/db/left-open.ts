/**
 * What the last run left open, when a full disk keeps the next start from settling it (durability audit, round 6).
 * settleAtStart used to log and leave such answers "streaming" in the database until a later start with room: the
 * page showed them with a spinner and a Stop button that stopped nothing, and no Continue or Regenerate, for the
 * whole session, even after the user had freed space. Now the ids read at start are kept; the page is shown each
 * such turn as it will be saved (interrupted, with a note that the disk is full), and the writes are tried again
 * before the user's next send, regenerate or edit, and every minute, until they go through. Only the turns read at
 * start are settled later: answers streaming by then are this run's own.
 */
import type { Database } from 'better-sqlite3';
import { settleOpenCalls } from '../../shared/reducer';
import type { Turn } from '../../shared/turn';
import type { ConversationStore } from './conversation-store';
import { findLeftOpen, interruptedCard, settleInterrupted, type LeftOpen } from './settle-interrupted';

/** What an answer left open says while the disk is too full to save it as interrupted. */
export const DISK_FULL_NOTE =
  'The disk that holds Firebrand’s data is full, so this is not yet saved as interrupted; what arrived is kept. Free some space, then Continue or Retry.';

/** How often writes owed since start are tried again (also before each answer the user starts). */
export const RETRY_EVERY_MS = 60_000;

export interface LeftOpenDeps {
  db: Database;
  store: ConversationStore;
  newId: () => string;
  now: () => number;
  log: (message: string) => void;
  /** Told of each conversation whose turns were settled late (its pages read it again). */
  changed?: (conversationId: string) => void;
  /** Told of each turn settled late, as saved: a page holding it drops the note that it is not saved yet. */
  saved?: (turn: Turn) => void;
}

/** The settling a full disk put off: what the page is shown meanwhile, and the retries. */
export class LeftOpenTurns {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly deps: LeftOpenDeps,
    private readonly left: LeftOpen,
  ) {}

  /** Whether anything is still owed. */
  get owed(): boolean {
    return this.left.streaming.length + this.left.cards.length + this.left.toolRuns.length > 0;
  }

  /** `turn` as it will be saved, when it is one the disk kept from being settled; undefined for any other. */
  shown(turn: Turn): Turn | undefined {
    if (turn.status === 'streaming' && this.left.streaming.includes(turn.id)) {
      return { ...turn, status: 'interrupted', blocks: settleOpenCalls(turn.blocks, 'interrupted'), error: DISK_FULL_NOTE };
    }
    if (turn.source === 'tool-approval' && turn.meta.state === 'pending' && this.left.cards.includes(turn.id)) {
      return { ...turn, ...interruptedCard(turn) };
    }
    return undefined;
  }

  /** Tries the owed writes again; true once nothing is owed. Never throws: a disk still full waits for the next try. */
  retry(): boolean {
    if (!this.owed) return true;
    if (!this.deps.db.open) return false;
    const conversations = this.conversationsOwed();
    const turns = [...this.left.streaming, ...this.left.cards];
    let interrupted: number | undefined;
    try {
      interrupted = trySettle(this.deps, this.left);
    } catch (err) {
      this.deps.log(`storage: could not save what was left streaming as interrupted: ${err instanceof Error ? err.message : String(err)}`);
      return false;
    }
    if (interrupted === undefined) return false;
    this.deps.log(`storage: there is room again: ${interrupted} answer(s) left streaming when Firebrand stopped are now saved as interrupted`);
    for (const id of turns) {
      const turn = this.deps.store.getTurn(id);
      if (turn) this.deps.saved?.(turn);
    }
    for (const id of conversations) this.deps.changed?.(id);
    this.stop();
    return true;
  }

  /** Tries again every `everyMs` until done or the database closes (the timer keeps no process alive). */
  retryEvery(everyMs = RETRY_EVERY_MS): void {
    this.stop();
    this.timer = setInterval(() => {
      if (!this.deps.db.open || this.retry()) this.stop();
    }, everyMs).unref();
  }

  private stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private conversationsOwed(): Set<string> {
    const ids = [...this.left.streaming, ...this.left.cards, ...this.left.toolRuns];
    return new Set(ids.flatMap((id) => this.deps.store.getTurn(id)?.conversationId ?? []));
  }
}

/**
 * Settles at startup and says so in the log. A disk too full for these writes does not keep Firebrand from
 * starting (durability audit: it said only "Firebrand could not start: database or disk is full", and the user
 * could not even read their chats): what is owed comes back, to be shown settled and written once there is room.
 */
export function settleAtStart(deps: LeftOpenDeps): LeftOpenTurns | undefined {
  const left = findLeftOpen(deps.db);
  const interrupted = trySettle(deps, left);
  if (interrupted !== undefined) {
    if (interrupted > 0) deps.log(`storage: ${interrupted} answer(s) were streaming when Firebrand stopped; kept as interrupted`);
    return undefined;
  }
  deps.log('storage: the disk is full, so what was streaming when Firebrand stopped is shown as interrupted but not saved so yet; it will be once there is room');
  const owed = new LeftOpenTurns(deps, left);
  owed.retryEvery();
  return owed;
}

/** Settles `left` (taking out what it writes); undefined when the disk is full. Other errors are thrown. */
function trySettle(deps: LeftOpenDeps, left: LeftOpen): number | undefined {
  try {
    return settleInterrupted(deps.db, deps.store, deps.newId, deps.now(), left);
  } catch (err) {
    const code = (err as { code?: unknown } | null)?.code;
    // SQLITE_READONLY: the chats open read-only on a full disk (read-only-copy.ts).
    if (code !== 'SQLITE_FULL' && code !== 'ENOSPC' && code !== 'SQLITE_READONLY') throw err;
    return undefined;
  }
}
