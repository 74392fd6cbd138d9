/**
 * The answers streaming now, as far as they have streamed, with how many parts made them (resilience audit R8).
 * A chat opened mid-answer (another tab, a reload, a page back after its link dropped) got the database's copy,
 * written at most every half second: the parts streamed between that write and the open never reached the page,
 * and the answer showed a hole until it ended. The open answers with this copy and its count instead, and the page
 * skips the parts it already holds by their number (`chat:turn-parts` `from`).
 */
import type { Turn } from '../../shared/turn';

/** Turns the last run left open that a full disk kept from being settled at start (db/left-open.ts). */
export interface LeftOpenView {
  shown(turn: Turn): Turn | undefined;
}

export class LiveTurns {
  private readonly live = new Map<string, { turn: Turn; parts: number }>();
  /**
   * Answers whose stream is over but whose end a full disk kept from being saved (round 9): their row still says
   * "streaming" with what the last write held, so a reload showed "…", a spinner and a Stop that stopped nothing,
   * without the text that had arrived, until room came back. Shown as they will be saved, until they are.
   */
  private readonly unsaved = new Map<string, Turn>();
  /** Shown as they will be saved: no run of this process streams into them (no spinner, no Stop; Continue works). */
  leftOpen: LeftOpenView | undefined;

  /** `turn` as streamed so far, made by its first `parts` parts. */
  note(turn: Turn, parts: number): void {
    this.live.set(turn.id, { turn, parts });
  }

  /** The turn's stream is over: its saved copy is the truth from now on. */
  end(turnId: string): void {
    this.live.delete(turnId);
  }

  /** `turn` is how an answer ended, not yet saved (the writer keeps trying): shown so meanwhile. */
  holdUnsaved(turn: Turn): void {
    this.unsaved.set(turn.id, turn);
  }

  /**
   * The newest copy of an answer this process holds, where it holds one: an end not saved yet (`holdUnsaved`), or
   * the answer as streamed so far (`note`), which may be ahead of its row by up to one write interval.
   */
  latest(turnId: string): { turn: Turn; unsaved: boolean } | undefined {
    const held = this.unsaved.get(turnId);
    if (held) return { turn: held, unsaved: true };
    const streamed = this.live.get(turnId);
    return streamed ? { turn: streamed.turn, unsaved: false } : undefined;
  }

  /** The end held by `holdUnsaved` is saved: the row is the truth again. */
  saved(turnId: string): void {
    this.unsaved.delete(turnId);
  }

  /** The streamed copy of each turn of `turns` still streaming, and the parts each holds. */
  overlay(turns: readonly Turn[]): { turns: Turn[]; streamed: Record<string, number> } {
    const streamed: Record<string, number> = {};
    const out = turns.map((t) => {
      const l = t.status === 'streaming' ? this.live.get(t.id) : undefined;
      if (!l) return this.unsaved.get(t.id) ?? this.leftOpen?.shown(t) ?? t;
      streamed[t.id] = l.parts;
      return l.turn;
    });
    return { turns: out, streamed };
  }
}
