import type { ContextAdvice } from '../../../shared/models';
import { formatBytes } from './format';

/**
 * What a model's Details say of the GPU: `facts`, the grey line (its memory, where it was read, the cards), and
 * `problem`, the red line where no window can be worked out. With no GPU found both said "GPU memory is unknown" (the
 * probe's note and the reason, one under the other): it is said once, in the red line, with the probe's "No GPU
 * answered" after it, and the grey line, which then had nothing else to say, goes (models eyes pass).
 */
export function gpuLines(advice: ContextAdvice): { facts: string | null; problem: string | null } {
  const { gpu } = advice;
  const problem = advice.recommendation === null ? advice.reason : null;
  if (gpu.source === 'unknown' && gpu.devices.length === 0) {
    const notes = gpu.notes.map((n) => n.replace(/:\s*GPU memory is unknown\.?$/i, '.')).filter((n) => !/^GPU memory is unknown\.?$/i.test(n));
    return { facts: null, problem: [problem ?? 'GPU memory is unknown.', ...notes].join(' ') };
  }
  const bytes = gpu.usableBytes !== null ? `${formatBytes(gpu.usableBytes)} ` : '';
  const devices = gpu.devices.map((d) => ` · ${d.name} ${formatBytes(d.totalBytes)}${d.integrated ? ' (integrated)' : ''}`).join('');
  const notes = gpu.notes.map((n) => ` — ${n}`).join('');
  return { facts: `GPU memory: ${bytes}(${gpu.source === 'override' ? 'set by hand in Settings' : gpu.source})${devices}${notes}`, problem };
}
