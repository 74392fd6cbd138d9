import { GPU_UNKNOWN_REASON, type ContextAdvice, type GpuReport } from '../../../shared/models';
import { formatBytes } from './format';

/** The probe's notes without their own "GPU memory is unknown" ("No GPU answered (…): GPU memory is unknown."). */
function probeNotes(gpu: GpuReport): string[] {
  return gpu.notes.map((n) => n.replace(/:\s*GPU memory is unknown\.?$/i, '.')).filter((n) => !/^GPU memory is unknown\.?$/i.test(n));
}

/**
 * The Models screen's GPU line where the GPU memory is unknown: said once for every model, with where to set it and
 * what the probe asked. Each model's row and its Details said it too ("GPU memory is unknown: set it in Settings →
 * GPU memory…" three times for three models, and again in Details); they now point here (unknownGpuPointer). Null
 * where the memory is known: each model's Details say it then, with the window it is worked out for.
 */
export function unknownGpuLine(gpu: GpuReport): string | null {
  if (gpu.usableBytes !== null) return null;
  return ['GPU memory is unknown, so each model gets the default window: set the memory in Settings → GPU memory to get the largest window that fits.', ...probeNotes(gpu)].join(' ');
}

/**
 * A built-in model's Details where the memory it may use is unknown (no GPU found, the engine not started): said
 * once, with where to set it and what the probe asked. The screen's GPU line is not shown for the built-in engine,
 * and the Details said it twice ("Memory: unknown — No GPU answered (…): GPU memory is unknown." and "How much memory
 * is free is unknown: set the GPU memory in Settings to get a recommendation.").
 */
export function unknownMemoryLine(gpu: GpuReport): string {
  return ['How much memory this model may use is unknown, so it gets the default window: set the GPU memory in Settings → GPU memory to get the largest window that fits.', ...probeNotes(gpu)].join(' ');
}

/** What a model's row and Details say where main's reason is the unknown GPU memory: where the screen says so. */
export const UNKNOWN_GPU_POINTER = 'see GPU memory above';

/** `reason` (main's, for a model's window), or the pointer to the screen's GPU line where it is GPU_UNKNOWN_REASON. */
export function reasonOrPointer(reason: string | null): string | null {
  return reason === GPU_UNKNOWN_REASON ? UNKNOWN_GPU_POINTER : reason;
}

/**
 * What a model's Details say of the GPU: `facts`, the grey line (its memory, where it was read, the cards), and
 * `problem`, the red line where no window can be worked out. With the memory unknown the screen's GPU line says so,
 * where to set it and what the probe asked (unknownGpuLine): the red line only points there, and the grey line goes
 * where it would have said nothing else (no card found).
 */
export function gpuLines(advice: ContextAdvice): { facts: string | null; problem: string | null } {
  const { gpu } = advice;
  const reason = advice.recommendation === null ? advice.reason : null;
  const problem = reason === GPU_UNKNOWN_REASON ? `No window is worked out without the GPU memory: ${UNKNOWN_GPU_POINTER}.` : reason;
  if (gpu.source === 'unknown' && gpu.devices.length === 0) return { facts: null, problem: problem ?? unknownGpuLine(gpu) };
  const bytes = gpu.usableBytes !== null ? `${formatBytes(gpu.usableBytes)} ` : '';
  const devices = gpu.devices.map((d) => ` · ${d.name} ${formatBytes(d.totalBytes)}${d.integrated ? ' (integrated)' : ''}`).join('');
  const notes = gpu.notes.map((n) => ` — ${n}`).join('');
  return { facts: `GPU memory: ${bytes}(${gpu.source === 'override' ? 'set by hand in Settings' : gpu.source})${devices}${notes}`, problem };
}
