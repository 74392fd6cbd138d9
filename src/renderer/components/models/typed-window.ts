/**
 * A window typed in a Context window panel (Ollama's and the built-in engine's). Models audit #4: 0, -5, 1.5, abc or
 * 100 made "Keep this window" do nothing while the last "Kept …" line stayed, as if the new value had been kept.
 * Main refuses what is out of its range or beyond the trained context; this says at once what no window can be.
 */
export const LEAST_WINDOW = 256;

export type TypedWindow = { tokens: number; problem?: undefined } | { problem: string; tokens?: undefined };

export function typedWindow(raw: string): TypedWindow {
  const text = raw.trim().replace(/[,_\s]/g, '');
  if (text === '') return { problem: `Type a window in tokens first: a whole number, at least ${LEAST_WINDOW}.` };
  const n = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n) || n < LEAST_WINDOW) return { problem: `A window is a whole number of tokens, at least ${LEAST_WINDOW}.` };
  return { tokens: n };
}
