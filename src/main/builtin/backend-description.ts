/** The sentence the Models screen shows on the built-in engine's backend. */
import type { BackendInfo } from '../../shared/library';
import type { EngineBackend } from './protocol';

const GPU_NAMES: Record<string, string> = { cuda: 'CUDA', vulkan: 'Vulkan', metal: 'Metal' };
const gpuName = (g: string) => GPU_NAMES[g] ?? g;

/** One sentence on the backend: what runs, and why a GPU build does not, where that is so. */
export function describeBackend(b: EngineBackend): BackendInfo {
  const free = b.backend === 'cpu' ? b.ram.free : (b.vram?.free ?? null);
  const total = b.backend === 'cpu' ? b.ram.total : (b.vram?.total ?? null);
  let reason: string;
  if (b.backend !== 'cpu') reason = `${gpuName(b.backend)}: llama.cpp runs on the GPU.`;
  else if (b.supportedGpus.length === 0) {
    reason = `CPU: no ${b.installedGpus.map(gpuName).join(' or ') || 'GPU'} driver was found on this machine, so the CPU build runs.`;
  } else reason = `CPU: the ${b.supportedGpus.map(gpuName).join('/')} build did not start here (or GPU use is turned off with FIREBRAND_BUILTIN_GPU), so the CPU build runs.`;
  return { backend: b.backend, reason, freeBytes: free, totalBytes: total };
}
