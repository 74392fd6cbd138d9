/**
 * What the built-in engine holds loaded, as main knows it from the engine's last status, with each model's idle
 * timeout: a model unused for the set minutes is unloaded, and the clock stops while an answer runs on it.
 */
import { isAbsolute, relative, sep } from 'node:path';
import type { LoadedModel } from '../../shared/library';
import type { EngineLoaded } from './protocol';

/** One model the engine holds, under its name in the models folder. */
export interface Loaded {
  file: string;
  /** The file the engine loaded (absolute): a model stays loaded when the models folder changes. */
  path: string;
  /** The context the engine made (llama.cpp's 256-token steps), and the window it was asked for. */
  contextSize: number;
  requestedSize: number;
  memoryBytes: number;
  unloadsAt: number | null;
  timer: NodeJS.Timeout | null;
}

export interface LoadedModelsDeps {
  /** Minutes an unused model stays loaded (0: no timeout). */
  idleMinutes: () => number;
  now: () => number;
  /** `file` was idle for `minutes`: unload it. */
  idleExpired: (file: string, minutes: number) => void;
}

export class LoadedModels {
  private readonly loaded = new Map<string, Loaded>();
  /**
   * Answers running per model file. Kept apart from `loaded`: a model's first answer starts before the engine has
   * loaded it (and reported it), and must count as answering from the start.
   */
  private readonly busyCount = new Map<string, number>();

  constructor(private readonly deps: LoadedModelsDeps) {}

  get(file: string): Loaded | undefined {
    return this.loaded.get(file);
  }

  has(file: string): boolean {
    return this.loaded.has(file);
  }

  all(): Loaded[] {
    return [...this.loaded.values()];
  }

  /** What the Running panel shows of each. */
  list(): LoadedModel[] {
    return this.all().map((l): LoadedModel => ({ file: l.file, contextSize: l.contextSize, requestedSize: l.requestedSize, memoryBytes: l.memoryBytes, unloadsAt: l.unloadsAt, answering: this.answering(l.file) }));
  }

  /** Takes what the engine reports it holds (absolute paths) as the truth; `dir` is the models folder. */
  apply(reported: EngineLoaded[], dir: string): void {
    const seen = new Set<string>();
    for (const l of reported) {
      const file = fileOf(dir, l.path);
      seen.add(file);
      const had = this.loaded.get(file);
      const entry: Loaded = { file, path: l.path, contextSize: l.contextSize, requestedSize: l.requestedSize, memoryBytes: l.memoryBytes, unloadsAt: had?.unloadsAt ?? null, timer: had?.timer ?? null };
      this.loaded.set(file, entry);
      // A model no answer runs on has an idle clock, whoever loaded it. One whose answer was stopped while the engine
      // loaded it ended (busy -1, its clock asked for) before the engine reported it, so it stayed loaded with no
      // clock for good (builtin audit #2).
      if (!entry.timer && !this.answering(file)) this.touch(file);
    }
    for (const [file, l] of this.loaded) {
      if (seen.has(file)) continue;
      if (l.timer) clearTimeout(l.timer);
      this.loaded.delete(file);
    }
  }

  /** `file` is no longer loaded. */
  forget(file: string): void {
    const had = this.loaded.get(file);
    if (had?.timer) clearTimeout(had.timer);
    this.loaded.delete(file);
  }

  /** Nothing is loaded (the engine stopped, or the app closes). */
  clear(): void {
    for (const l of this.loaded.values()) if (l.timer) clearTimeout(l.timer);
    this.loaded.clear();
  }

  /** Whether an answer is running on `file`. */
  answering(file: string): boolean {
    return (this.busyCount.get(file) ?? 0) > 0;
  }

  /**
   * A generation starts or ends on `file`: the idle clock stops while it runs and restarts after. True when what the
   * Running panel shows of a loaded `file` changed: the time it unloads at, or whether it is answering.
   */
  busy(file: string, delta: 1 | -1): boolean {
    const l = this.loaded.get(file);
    const wasAnswering = this.answering(file);
    const n = Math.max(0, (this.busyCount.get(file) ?? 0) + delta);
    if (n > 0) this.busyCount.set(file, n);
    else this.busyCount.delete(file);
    const before = l?.unloadsAt ?? null;
    if (delta === -1) this.touch(file);
    else if (l?.timer) {
      clearTimeout(l.timer);
      l.timer = null;
      l.unloadsAt = null;
    }
    return l !== undefined && (l.unloadsAt !== before || this.answering(file) !== wasAnswering);
  }

  /**
   * The idle timeout was changed in Settings: each model not answering gets the new one, counted from now. Before
   * (round 9), the clocks kept the old one: "0: never" still unloaded a model at the time the panel showed. Returns
   * the files whose unload time changed.
   */
  retime(): string[] {
    const moved: string[] = [];
    for (const l of this.loaded.values()) {
      if (this.answering(l.file)) continue;
      const before = l.unloadsAt;
      this.touch(l.file);
      if (l.unloadsAt !== before) moved.push(l.file);
    }
    return moved;
  }

  /** `file` was just used: its idle clock starts again (none while an answer runs on it). */
  touch(file: string): void {
    const l = this.loaded.get(file);
    if (!l) return;
    if (l.timer) clearTimeout(l.timer);
    const minutes = this.deps.idleMinutes();
    if (minutes <= 0 || this.answering(file)) {
      l.timer = null;
      l.unloadsAt = null;
      return;
    }
    const ms = minutes * 60_000;
    l.unloadsAt = this.deps.now() + ms;
    l.timer = setTimeout(() => {
      if (this.answering(file)) return;
      this.deps.idleExpired(file, minutes);
    }, ms);
    l.timer.unref();
  }
}

/**
 * The engine reports absolute paths; Firebrand names models by their path in the folder, and one loaded from
 * elsewhere (the folder was changed in Settings since) by its whole path.
 */
function fileOf(dir: string, path: string): string {
  const rel = relative(dir, path);
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return path;
  return rel.split(sep).join('/');
}
