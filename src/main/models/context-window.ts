/**
 * The context window an Ollama request carries when no identity layer names one (issue 6, DESIGN.md §7): the
 * window the user kept for the model, else the GPU recommendation, else 4096 with the reason. Never a silent
 * server default, and never a reason for a send to wait long or fail: the recommendation is cached per model,
 * and one that takes too long or fails yields the fallback while the work goes on for next time.
 */
import { DEFAULT_CONTEXT_WINDOW } from '../../shared/context-estimate';
import type { ContextAdvice, ContextWindowChoice } from '../../shared/models';
import { UserFacingError } from '../errors';
import type { StoredWindow } from './model-settings-store';

export interface ContextWindowDeps {
  /** The window the user (or the "Use" button) kept for this model on this server. */
  stored: (baseUrl: string, model: string) => StoredWindow | null;
  /** The GPU probe + `/api/show` + weights arithmetic (ModelService.recommend). */
  recommend: (baseUrl: string, model: string) => Promise<ContextAdvice>;
  /** How long a send waits for a recommendation not yet worked out (default 2.5 s). */
  waitMs?: number;
  now?: () => number;
  /** The name a reason gives the server at `baseUrl` (its saved connection's); absent or unknown, "Ollama". */
  nameOf?: (baseUrl: string) => string | undefined;
}

/** A fallback is asked again after this long: the server may be up, or the GPU memory set by hand, by then. */
const FALLBACK_TTL_MS = 30_000;

export class ContextWindowResolver {
  private readonly cache = new Map<string, { choice: Promise<ContextWindowChoice>; expires: number; fellBack?: boolean; settled?: ContextWindowChoice }>();

  constructor(private readonly deps: ContextWindowDeps) {}

  /** `wait`: take the recommendation however long it takes (the Models screen), not the default after `waitMs`. */
  async resolve(baseUrl: string, model: string, options: { wait?: boolean } = {}): Promise<ContextWindowChoice> {
    const kept = this.deps.stored(baseUrl, model);
    if (kept) return { contextWindow: kept.contextWindow, source: kept.source, reason: kept.source === 'user' ? await this.pastGpu(baseUrl, model, kept.contextWindow, options) : null };
    const entry = this.entry(baseUrl, model, options);
    if (options.wait) return entry.choice;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<ContextWindowChoice>((resolve) => {
      timer = setTimeout(
        () => resolve(fallback('The GPU recommendation is still being worked out; this message uses the default window.')),
        this.deps.waitMs ?? 2_500,
      );
    });
    try {
      return await Promise.race([entry.choice, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * A window the user kept past what fits the GPU is said to be (settings fix 1): it is sent as kept, and Ollama runs
   * part of the model on the CPU. A send never waits for this: it says so only once the recommendation is known.
   */
  private async pastGpu(baseUrl: string, model: string, window: number, options: { wait?: boolean }): Promise<string | null> {
    const entry = this.entry(baseUrl, model, options);
    const rec = options.wait ? await entry.choice : entry.settled;
    if (rec?.source !== 'recommended' || rec.contextWindow === null || rec.contextWindow >= window) return null;
    return `More than the ${rec.contextWindow.toLocaleString('en-US')} tokens that fit your GPU: the model runs partly on the CPU, slower.`;
  }

  private entry(baseUrl: string, model: string, options: { wait?: boolean }): { choice: Promise<ContextWindowChoice>; settled?: ContextWindowChoice } {
    const now = (this.deps.now ?? Date.now)();
    const key = `${baseUrl}\u0000${model}`;
    let entry = this.cache.get(key);
    // One who waits (the Models screen) gets a fresh try instead of a fallback kept for sends.
    if (!entry || entry.expires <= now || (options.wait && entry.fellBack)) {
      const choice = this.work(baseUrl, model);
      entry = { choice, expires: Infinity };
      this.cache.set(key, entry);
      const settled = entry;
      void choice.then((c) => {
        settled.settled = c;
        if (c.source !== 'fallback') return;
        settled.expires = (this.deps.now ?? Date.now)() + FALLBACK_TTL_MS;
        settled.fellBack = true;
      });
    }
    return entry;
  }

  /** The GPU memory or a kept window changed: work the recommendations out again. */
  forget(): void {
    this.cache.clear();
  }

  private async work(baseUrl: string, model: string): Promise<ContextWindowChoice> {
    try {
      const advice = await this.deps.recommend(baseUrl, model);
      const rec = advice.recommendation;
      if (!rec) return fallback(advice.reason ?? 'No recommendation could be made.');
      if (!rec.fits) return fallback(rec.message);
      return { contextWindow: rec.contextTokens, source: 'recommended', reason: rec.message };
    } catch (err) {
      return fallback(failureReason(err, this.deps.nameOf?.(baseUrl) ?? 'Ollama', model));
    }
  }
}

/**
 * One plain sentence under the message box. It read "No recommendation: Details of llama3.2:3b: not found on
 * Ollama." (the inner error pasted in), and with the server down it repeated the red banner's "Cannot reach …"
 * sentence word for word; the banner already says how to fix the address, so this says only why there is no number.
 */
export function failureReason(err: unknown, server: string, model: string): string {
  if (err instanceof UserFacingError && err.code === 'server-unreachable') return `No recommendation while ${server} does not answer.`;
  if (err instanceof UserFacingError && err.code === 'not-found') return `No recommendation: ${server} has no details of ${model}.`;
  const said = (err instanceof Error ? err.message : String(err)).trim();
  if (!said) return 'No recommendation could be made.';
  const sentence = said.charAt(0).toUpperCase() + said.slice(1);
  return `No recommendation could be made. ${/[.!?]$/.test(sentence) ? sentence : `${sentence}.`}`;
}

function fallback(reason: string): ContextWindowChoice {
  return { contextWindow: DEFAULT_CONTEXT_WINDOW, source: 'fallback', reason };
}
