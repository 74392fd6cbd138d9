/**
 * The steps whose tools are running now (migration 0014): marked before a step's tools run, cleared once their
 * tool turn is written. What a crash leaves marked is settled at the next start (./settle-interrupted.ts).
 */
import type { Database, Statement } from 'better-sqlite3';

export class ToolRuns {
  private readonly insert: Statement;
  private readonly remove: Statement;

  constructor(private readonly db: Database) {
    this.insert = db.prepare('INSERT OR REPLACE INTO tool_runs (turn_id, started_at) VALUES (?, ?)');
    this.remove = db.prepare('DELETE FROM tool_runs WHERE turn_id = ?');
  }

  /** The step `turnId` (its assistant turn) starts running its tools. */
  begin(turnId: string, now: number): void {
    this.insert.run(turnId, now);
  }

  /** Its tool turn is written: nothing to settle for it any more. */
  end(turnId: string): void {
    this.remove.run(turnId);
  }

  /** The steps still marked: at startup, those a crash cut while their tools ran. */
  left(): string[] {
    return (this.db.prepare('SELECT turn_id FROM tool_runs ORDER BY started_at').all() as { turn_id: string }[]).map((r) => r.turn_id);
  }
}
