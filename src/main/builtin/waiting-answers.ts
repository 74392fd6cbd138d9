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
  /** A load asked from Models → Load, not a generation. */
  load: boolean;
}

/** A generation's place in the engine's line: says when it started and when it ended. */
export interface LinePlace {
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
    return this.enter({ turnId, file, contextSize, started: false, load: false });
  }

  /** A load of `file` with this window asked from Models → Load was handed to the engine, behind every one before it. */
  joinLoad(file: string, contextSize: number): LinePlace {
    return this.enter({ turnId: undefined, file, contextSize, started: false, load: true });
  }

  private enter(entry: InLine): LinePlace {
    this.line.push(entry);
    this.tell();
    return {
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
      // First in line with its model held: it is reading its prompt, no wait worth a line.
      else if (thenLoads) out.push({ turnId: entry.turnId, file: entry.file, state: 'loading' });
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
