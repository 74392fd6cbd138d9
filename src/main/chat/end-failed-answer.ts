/**
 * Ends the turns of an answer whose run threw (./chat-service.ts): never leave a turn spinning. Whatever was still
 * streaming ends as an error the user can see, with all that arrived.
 */
import type { Turn } from '../../shared/turn';
import { saveEventually } from '../engine/run-step';
import { describeWriteFailure, TurnWriter } from '../engine/turn-writer';
import type { ChatServiceDeps } from './chat-service-deps';

/**
 * Ends each of `turnIds` still streaming as an error saying why `err` stopped it. Never throws: this path must not
 * throw itself (issue 15: with the disk full, its own update failed again and ended the process).
 */
export function endFailedAnswer(deps: Pick<ChatServiceDeps, 'store' | 'emit' | 'log' | 'engine'>, turnIds: readonly string[], err: unknown): void {
  deps.log(`chat: answer failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  const why = isWriteFailure(err) ? describeWriteFailure(err) : 'Something went wrong while answering; what arrived is kept.';
  const live = deps.engine.live;
  for (const id of turnIds) {
    try {
      const row = deps.store.getTurn(id);
      if (row?.status !== 'streaming') continue;
      // The step's end, held until the disk has room, is on its way already: a second writer with the row's
      // older copy could land after it and take the answer's text back (full-disk audit, round 10).
      const latest = live?.latest(id);
      if (latest?.unsaved) continue;
      // What streamed, where it is ahead of the row's last write: "what arrived is kept" means all of it.
      const ended: Turn = { ...(latest?.turn ?? row), status: 'error', stop: 'error', error: why };
      live?.end(id);
      const writer = new TurnWriter((turn) => deps.store.updateTurn(turn));
      // Not saved (a full disk): shown as it will be saved until it is, as run-step's own ends are (round 9:
      // a reload showed the row's "streaming" copy, with a Stop that stopped nothing).
      if (!writer.finish(ended)) saveEventually({ live }, writer, ended);
      deps.emit('chat:turn-saved', { turn: ended });
    } catch (inner) {
      deps.log(`chat: could not end turn ${id}: ${inner instanceof Error ? inner.message : String(inner)}`);
    }
  }
}

/** A failure of the database or the disk under it, rather than of the server or the engine. */
function isWriteFailure(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_') || code === 'ENOSPC');
}
