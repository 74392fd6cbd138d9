/**
 * The auto-compact setting (issue 21), per connection or alias: summarize the older turns on its own when the
 * request reaches this share of the window. Off unless set. Kept as one JSON value in the generic settings table
 * under its own key (as the GPU override and the calibration are), so it needs no migration; the settings store
 * ignores keys it does not know, so this one does not leak into `Settings`.
 */
import type { Database } from 'better-sqlite3';
import type { AutoCompactSetting } from '../../shared/context-ipc';

const KEY = 'context.autoCompact';

export class AutoCompactStore {
  constructor(private readonly db: Database) {}

  list(): AutoCompactSetting[] {
    const row = this.db.prepare('SELECT value FROM settings WHERE key = ?').get(KEY) as { value: string } | undefined;
    if (!row) return [];
    try {
      const parsed: unknown = JSON.parse(row.value);
      if (!Array.isArray(parsed)) return [];
      return parsed.flatMap((s: unknown): AutoCompactSetting[] => {
        const r = s as Partial<AutoCompactSetting> | null;
        return r && (r.kind === 'connection' || r.kind === 'alias') && typeof r.id === 'string' && typeof r.threshold === 'number' ? [{ kind: r.kind, id: r.id, threshold: r.threshold }] : [];
      });
    } catch {
      return [];
    }
  }

  set(kind: AutoCompactSetting['kind'], id: string, threshold: number | null): AutoCompactSetting[] {
    const rest = this.list().filter((s) => !(s.kind === kind && s.id === id));
    const next = threshold === null ? rest : [...rest, { kind, id, threshold }];
    this.db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(KEY, JSON.stringify(next));
    return next;
  }

  /** The threshold for a send: the alias's own setting wins over its connection's. */
  thresholdFor(aliasId: string | undefined, connectionId: string): number | undefined {
    const all = this.list();
    const alias = aliasId !== undefined ? all.find((s) => s.kind === 'alias' && s.id === aliasId) : undefined;
    return (alias ?? all.find((s) => s.kind === 'connection' && s.id === connectionId))?.threshold;
  }
}
