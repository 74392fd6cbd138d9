/**
 * Whether a window chosen by hand fits the GPU, said where it is chosen. The recommendation picks the largest
 * window that fits, but a window typed (or kept) past it was taken silently: Ollama then runs part of the model on
 * the CPU, several times slower, and nothing said why. Nothing is refused: a user may want the longer window.
 */
import type { ContextRecommendation } from '../../../shared/models';
import { windowMemoryBytes } from '../../../shared/window-memory';
import { formatBytes, formatTokens } from './format';

/** What `window` would do on this GPU, or null when it fits (or the GPU memory is not known). */
export function windowFitNote(rec: ContextRecommendation | null, window: number): string | null {
  const memory = rec?.memory;
  if (!rec || !memory || window <= rec.contextTokens) return null;
  const need = windowMemoryBytes(memory, window);
  const lead = rec.fits ? `${formatTokens(rec.contextTokens)} tokens fit your GPU; ` : 'No useful window fits your GPU beside this model; ';
  const what = `${formatTokens(window)} needs ~${formatBytes(need)}`;
  if (need > memory.freeBytes) return `${lead}${what}, more than the ${formatBytes(memory.freeBytes)} free — it will run partly on the CPU, slower.`;
  return `${lead}${what} of the ${formatBytes(memory.freeBytes)} free, leaving less than the 10% headroom — it may run partly on the CPU, slower, once other programs use the GPU.`;
}
