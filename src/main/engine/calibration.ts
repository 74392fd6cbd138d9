import type { Database } from 'better-sqlite3';
import { calibratedTokens } from '../../shared/context-estimate';

const KEY = 'engine.calibration';
/** How much one observation moves the ratio: a few requests settle it, one odd request cannot swing it. */
export const SMOOTHING = 0.3;
/** A ratio outside this range means the observation was not comparable (cached prompt, a different model). */
const MIN_RATIO = 0.25;
const MAX_RATIO = 4;
/**
 * An exact count (llama-server's /tokenize, a server's full prompt count) is comparable by construction: only a
 * sample beyond this is nonsense. A byte-fallback tokenizer really is 5-7x the character estimate (issue 13).
 */
const MIN_EXACT_RATIO = 1 / 32;
const MAX_EXACT_RATIO = 32;

/**
 * The per-model correction of the chars/4 estimate (DESIGN.md §2): ratio = tokens the server reported for the
 * prompt / our estimate of that same request, smoothed (exponential moving average) and persisted in the
 * settings table, so the preflight is close to exact after a few requests and stays so across restarts.
 */
export class Calibration {
  private ratios: Record<string, number>;

  constructor(private readonly db: Database) {
    this.ratios = this.load();
  }

  ratio(model: string): number {
    return this.ratios[model] ?? 1;
  }

  /** Whether a server's count has taught anything of `model` yet (until then the estimate is characters / 4). */
  learned(model: string): boolean {
    return this.ratios[model] !== undefined;
  }

  /** The estimate corrected for `model`. */
  apply(model: string, rawEstimate: number): number {
    return calibratedTokens(rawEstimate, this.ratio(model));
  }

  /**
   * Records what the server reported for a request whose raw (uncorrected) estimate was `rawEstimate`. `exact`:
   * the count covers the whole prompt (not Ollama's count after its cache), so a far-off ratio is real.
   */
  observe(model: string, rawEstimate: number, reportedTokens: number | undefined, exact = false): void {
    if (reportedTokens === undefined || reportedTokens <= 0 || rawEstimate <= 0) return;
    const sample = reportedTokens / rawEstimate;
    const [min, max] = exact ? [MIN_EXACT_RATIO, MAX_EXACT_RATIO] : [MIN_RATIO, MAX_RATIO];
    if (sample < min || sample > max) return;
    const prev = this.ratios[model];
    this.ratios = { ...this.ratios, [model]: prev === undefined ? sample : prev + SMOOTHING * (sample - prev) };
    this.db
      .prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value')
      .run(KEY, JSON.stringify(this.ratios));
  }

  private load(): Record<string, number> {
    const row = this.db.prepare('SELECT value FROM settings WHERE key = ?').get(KEY) as { value: string } | undefined;
    if (!row) return {};
    const parsed: unknown = JSON.parse(row.value);
    const out: Record<string, number> = {};
    if (parsed && typeof parsed === 'object') {
      for (const [k, v] of Object.entries(parsed)) if (typeof v === 'number' && Number.isFinite(v)) out[k] = v;
    }
    return out;
  }
}
