/**
 * A window the user keeps for a model may not exceed what the model was trained for (models audit #2): Ollama got
 * `num_ctx` 1,000,000 for qwen3:8b (trained for 40,960) and the built-in engine loaded weather.gguf (trained for
 * 4,096) with a 1,000,000-token context, 1.4 GB for a 2.5 MiB model. Past its trained context a model's answers fall
 * apart, and the README promises windows are never more than that. Where the trained context is unknown, the window
 * is kept as typed: nothing is refused on a guess.
 */
import { UserFacingError } from '../errors';

const fmt = (n: number) => n.toLocaleString('en-US');

/** Why `window` cannot be kept for `model`, or null; `trained` null where the model does not say. */
export function beyondTrained(model: string, window: number, trained: number | null): string | null {
  if (trained === null || window <= trained) return null;
  return `${model} was trained for a context of ${fmt(trained)} tokens, so a ${fmt(window)}-token window is more than it can use. Keep ${fmt(trained)} or less.`;
}

export function refuseBeyondTrained(model: string, window: number | null, trained: number | null): void {
  if (window === null) return;
  const problem = beyondTrained(model, window, trained);
  if (problem !== null) throw new UserFacingError('invalid-payload', problem);
}
