/**
 * `/api/show` answers cached per (server, model): the model list's capabilities, the context recommendation and
 * the window resolver all read the same answer, and a model's architecture only changes when it is pulled again.
 * Concurrent asks share one request; a failure is not cached, so a server that was down is asked again.
 */
import type { ModelDetails } from '../../shared/models';
import { callServer } from './ollama-http';
import { parseShow } from './ollama-show';

/** Long enough for a busy local server, short enough that a list of 30 models never stalls the UI. */
export const SHOW_TIMEOUT_MS = 4_000;

export class ShowCache {
  private readonly done = new Map<string, ModelDetails>();
  private readonly inFlight = new Map<string, Promise<ModelDetails | null>>();

  /** The parsed answer, or null when the server did not answer in time or with a usable body. Never throws. */
  get(baseUrl: string, model: string, timeoutMs = SHOW_TIMEOUT_MS): Promise<ModelDetails | null> {
    const key = `${baseUrl}\u0000${model}`;
    const hit = this.done.get(key);
    if (hit) return Promise.resolve(hit);
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const run = callServer(baseUrl, { method: 'POST', path: '/api/show', body: { model }, timeoutMs, signal: AbortSignal.timeout(timeoutMs) })
      .then((answer) => {
        if (answer.status !== 200 || answer.json === null || typeof answer.json !== 'object') return null;
        const details = parseShow(model, answer.json);
        this.done.set(key, details);
        return details;
      })
      .catch(() => null)
      .finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, run);
    return run;
  }

  /** A pulled-again or deleted model may have changed: ask the server next time. */
  forget(model?: string): void {
    for (const key of this.done.keys()) if (model === undefined || key.endsWith(`\u0000${model}`)) this.done.delete(key);
  }
}
