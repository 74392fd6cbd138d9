/**
 * Per-model choices kept in SQLite: one context window per (connection, model) in model_context_windows
 * (migration 0004), and the hand-set GPU memory, kept in the generic settings table under its own key (the
 * settings store ignores keys it does not know, so this one does not leak into `Settings`).
 */
import type { Database } from 'better-sqlite3';

export interface StoredWindow {
  contextWindow: number;
  source: 'recommended' | 'user';
}

const GPU_OVERRIDE_KEY = 'gpu.vramOverrideBytes';

export class ModelSettingsStore {
  constructor(
    private readonly db: Database,
    private readonly now: () => number = Date.now,
  ) {}

  getWindow(connectionId: string, model: string): StoredWindow | null {
    const row = this.db
      .prepare('SELECT context_window, source FROM model_context_windows WHERE connection_id = ? AND model = ?')
      .get(connectionId, model) as { context_window: number; source: StoredWindow['source'] } | undefined;
    return row ? { contextWindow: row.context_window, source: row.source } : null;
  }

  /** Returns true when the window changed: Ollama then reloads the model (a new num_ctx means a new KV cache). */
  setWindow(connectionId: string, model: string, window: StoredWindow): boolean {
    const before = this.getWindow(connectionId, model);
    this.db
      .prepare(
        `INSERT INTO model_context_windows (connection_id, model, context_window, source, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (connection_id, model) DO UPDATE SET context_window = excluded.context_window, source = excluded.source, updated_at = excluded.updated_at`,
      )
      .run(connectionId, model, window.contextWindow, window.source, this.now());
    return before?.contextWindow !== window.contextWindow;
  }

  clearWindow(connectionId: string, model: string): void {
    this.db.prepare('DELETE FROM model_context_windows WHERE connection_id = ? AND model = ?').run(connectionId, model);
  }

  gpuOverride(): number | null {
    const row = this.db.prepare('SELECT value FROM settings WHERE key = ?').get(GPU_OVERRIDE_KEY) as { value: string } | undefined;
    const value = row ? (JSON.parse(row.value) as unknown) : null;
    return typeof value === 'number' && value > 0 ? value : null;
  }

  setGpuOverride(bytes: number | null): void {
    if (bytes === null) this.db.prepare('DELETE FROM settings WHERE key = ?').run(GPU_OVERRIDE_KEY);
    else this.db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(GPU_OVERRIDE_KEY, JSON.stringify(bytes));
  }
}
