/**
 * The answers waiting on the built-in engine before their first token, each with its own state (tabs #4). Before,
 * the page knew only which model files were loading: two answers on one model (two tabs, or a regenerate) shared
 * one "Loading model" line, which went from both when the first one's load ended, while the second still waited.
 *
 * The engine runs one generation at a time, whatever its model, in the order main hands them over
 * (engine-runtime.ts `generate`). So this keeps that line: an answer with nothing before it is loading its model
 * (if the engine does not hold it), and one with answers before it waits for them, whichever model they are on, and
 * only then loads its own if it must. An answer on model Y behind one on model X said "Loading Y" while the engine
 * was answering on X (round 7, engine #1). A load asked from Models → Load takes its place in the line too (the engine
 * loads one thing at a time, and not during a generation): an answer sent meanwhile said "Loading Y" while the engine
 * loaded X first (round 8, engine #4).
 */
import type { WaitingAnswer } from '../../shared/library';

/** One generation handed to the engine, until it ends. */
interface InLine {
  /** The answer it generates; absent for a lane's request (a title), which others still wait behind. */
  turnId: string | undefined;
  file: string;
  contextSize: number;
  started: boolean;
  /** Tokens of the prompt the engine reads before the first token, once its model is loaded; null before. */
  reading: number | null;
  /** A load asked from Models → Load, not a generation. */
  load: boolean;
}

/**
 * Below this many tokens to read, the prompt read takes no wait worth a line (a short chat, or one mostly cached):
 * the line would only flash.
 */
export const READ_WORTH_SAYING = 512;

/** A generation's place in the engine's line: says when it started and when it ended. */
export interface LinePlace {
  /** Its model is loaded, and the engine reads `tokens` of the prompt before the first token. */
  reading(tokens: number): void;
  /** Its first token (or its end) came. */
  started(): void;
  ended(): void;
}

export class WaitingAnswers {
  private readonly line: InLine[] = [];
  /** What the pages were told last: a change that changes nothing they show is not told again. */
  private told = '[]';

  /**
   * `announce`: every page is told the whole list after each change (a page that missed one reads `list`).
   * `holds`: whether the engine holds `file` loaded with this window now.
   */
  constructor(
    private readonly announce: (waiting: WaitingAnswer[]) => void,
    private readonly holds: (file: string, contextSize: number) => boolean = () => false,
  ) {}

  /** A generation on `file` with this window was handed to the engine, behind every one handed before it. */
  join(turnId: string | undefined, file: string, contextSize: number): LinePlace {
    return this.enter({ turnId, file, contextSize, started: false, reading: null, load: false });
  }

  /** A load of `file` with this window asked from Models → Load was handed to the engine, behind every one before it. */
  joinLoad(file: string, contextSize: number): LinePlace {
    return this.enter({ turnId: undefined, file, contextSize, started: false, reading: null, load: true });
  }

  private enter(entry: InLine): LinePlace {
    this.line.push(entry);
    this.tell();
    return {
      reading: (tokens) => {
        if (entry.started) return;
        entry.reading = tokens;
        this.tell();
      },
      started: () => {
        if (entry.started) return;
        entry.started = true;
        this.tell();
      },
      ended: () => {
        const at = this.line.indexOf(entry);
        if (at < 0) return;
        this.line.splice(at, 1);
        this.tell();
      },
    };
  }

  /** What the engine runs (or loads for) now: its model, and whether it is a load from Models; null when none is in line. */
  current(): { file: string; load: boolean } | null {
    const first = this.line[0];
    return first ? { file: first.file, load: first.load } : null;
  }

  /** The answers waiting now, each with what it waits on. */
  list(): WaitingAnswer[] {
    const out: WaitingAnswer[] = [];
    this.line.forEach((entry, i) => {
      if (entry.turnId === undefined || entry.started) return;
      const ahead = this.line.slice(0, i);
      // The model is loaded for it when the last answer before it on that file used the same window; else when the
      // engine holds it so now (a model held now may still be let go to make room: then it is loaded again).
      const before = ahead.filter((a) => a.file === entry.file).at(-1);
      const thenLoads = before ? before.contextSize !== entry.contextSize : !this.holds(entry.file, entry.contextSize);
      if (ahead.length > 0) {
        out.push({ turnId: entry.turnId, file: entry.file, state: 'queued', ahead: ahead.map((a) => ({ file: a.file, answer: a.turnId !== undefined, ...(a.load ? { load: true } : {}) })), thenLoads });
      }
      // Loaded, the engine reads the conversation before the first token: a long chat on a CPU for a minute or more,
      // which showed a bare "…" once the loading line went (builtin audit #7).
      else if (entry.reading !== null) {
        if (entry.reading >= READ_WORTH_SAYING) out.push({ turnId: entry.turnId, file: entry.file, state: 'reading', tokens: entry.reading });
      } else if (thenLoads) out.push({ turnId: entry.turnId, file: entry.file, state: 'loading' });
    });
    return out;
  }

  /** Tells the pages, where what they show changed. */
  recheck(): void {
    this.tell();
  }

  private tell(): void {
    const list = this.list();
    const json = JSON.stringify(list);
    if (json === this.told) return;
    this.told = json;
    this.announce(list);
  }
}
