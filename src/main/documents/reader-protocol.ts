/**
 * Between the extraction runner (main) and the document reader's process (./extract-process.ts): one job out, one
 * reply back, and the carrier that starts the process (a Node fork in serve mode and tests, an Electron
 * utilityProcess in the app: src/main/shell/reader-utility.ts).
 */
import type { DocumentText, ExtractionFailure } from '../../shared/attachment-text';
import type { ExtractorKind } from './extractor-kind';

export interface ReaderJob {
  kind: ExtractorKind;
  name: string;
  bytes: Uint8Array;
  /** Most time the reader may spend pausing for the work beside it (./reading-pace.ts). */
  pauseBudgetMs?: number;
  /** An answer is streaming as the job is sent (./reading-pace.ts). */
  answering?: boolean;
}

/** To a reader at work: an answer started (true) or stopped (false) streaming since its job was sent. */
export interface ReaderPace {
  t: 'pace';
  answering: boolean;
}

/** What the runner sends a reader. */
export type ToReader = ReaderJob | ReaderPace;

export function isReaderPace(message: unknown): message is ReaderPace {
  return typeof message === 'object' && message !== null && (message as { t?: unknown }).t === 'pace' && typeof (message as { answering?: unknown }).answering === 'boolean';
}

export type ReaderReply = { ok: true; doc: DocumentText } | { ok: false; failure: ExtractionFailure };

/** How a reader process ended. */
export interface ReaderExit {
  /** Its exit code and signal, in words ("exit code 1", "signal SIGKILL"). */
  why: string;
  /** It ran out of its heap (--max-old-space-size): V8 said so before it ended. */
  outOfMemory: boolean;
}

/** A running reader process as the runner sees it. */
export interface ReaderChannel {
  /** Its process id once known (a utilityProcess has none until it has started). */
  readonly pid: number | undefined;
  send(message: ToReader): void;
  onReply(listener: (reply: ReaderReply) => void): void;
  /** Called once, when the process has ended (whatever the reason). */
  onExit(listener: (exit: ReaderExit) => void): void;
  /** Whether the process keeps the app's event loop alive: a reader kept idle for the next file does not. */
  hold(held: boolean): void;
  kill(): void;
}

/** Starts one reader process with that heap limit. */
export type ReaderSpawner = (limits: { maxHeapMb: number }) => ReaderChannel;

/** The V8 flags that bound a reader's heap. */
export function readerExecArgv(maxHeapMb: number): string[] {
  return [`--max-old-space-size=${maxHeapMb}`, `--max-semi-space-size=${Math.min(16, Math.max(1, maxHeapMb >> 5))}`];
}

/**
 * Watches what a reader prints on stderr for V8's words when a process runs out of heap ("Reached heap limit",
 * "JavaScript heap out of memory"); a stack trace of several kilobytes follows them. Feed it every chunk.
 */
export class OutOfMemoryWatch {
  private tail = '';
  saw = false;

  feed(chunk: string): void {
    if (this.saw) return;
    // The words may straddle two chunks: the end of the last one is read again with this one.
    const text = this.tail + chunk;
    this.saw = /heap out of memory|Reached heap limit|Ineffective mark-compacts near heap limit/i.test(text);
    this.tail = text.slice(-64);
  }
}
