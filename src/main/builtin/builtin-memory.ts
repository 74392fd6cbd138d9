/**
 * How much memory a built-in model may use, and the context window that fits in it (DESIGN.md §7, §9). Here
 * Firebrand allocates the context itself, so this arithmetic decides what happens: the same table as for Ollama
 * (src/main/models/context-recommendation.ts), fed from
 * - a hand-set amount (Models → "set by hand"), minus what other loaded built-in models hold;
 * - else the engine's own backend reading: free VRAM on a GPU backend, available system memory on the CPU one
 *   (what this model already holds counts as free for it: it is replaced, not added);
 * - else the GPU probe (nvidia-smi, sysfs...) when the engine has not started yet.
 */
import { readFile } from 'node:fs/promises';
import { freemem } from 'node:os';
import { GPU_UNKNOWN_REASON, type ContextAdvice, type GpuReport, type ModelArchitecture } from '../../shared/models';
import { HEADROOM_FRACTION, recommendContext, MIB } from '../models/context-recommendation';
import type { StoredWindow } from '../models/model-settings-store';
import type { EngineBackend } from './protocol';

/** What a CPU backend keeps beside the weights and cache (threads' scratch, the output buffers). */
export const CPU_RUNTIME_BYTES = 256 * MIB;

export interface MemoryInput {
  file: string;
  weightsBytes: number;
  arch: ModelArchitecture | null;
  backend: EngineBackend | null;
  /** Hand-set usable memory, bytes. */
  override: number | null;
  /** Held by other loaded built-in models. */
  heldByOthers: number;
  /** Held by this model if it is loaded now. */
  heldBySelf: number;
  /**
   * Held by other loaded built-in models that are idle (not in `heldByOthers`): they are unloaded when this one
   * needs the room, so it counts as free for it.
   */
  idleOthers?: number;
  stored: StoredWindow | null;
  /** The GPU probe, used when the engine has not reported a backend yet. */
  probe: () => Promise<GpuReport>;
  /** Available system memory (MemAvailable on Linux). */
  availableRam?: () => Promise<number>;
}

export async function builtinAdvice(input: MemoryInput): Promise<ContextAdvice> {
  const { gpu, cpu } = await memoryReport(input);
  const base = { model: input.file, gpu, weightsBytes: input.weightsBytes, stored: input.stored };
  // The same reason as an Ollama model's: the message box says it in three words with "Set it", and the Details
  // in one sentence of their own (LibraryContext.tsx), where it read "How much memory is free is unknown: …".
  if (gpu.usableBytes === null) return { ...base, recommendation: null, reason: GPU_UNKNOWN_REASON };
  if (!input.arch) return { ...base, recommendation: null, reason: 'The file does not describe its architecture (layers, heads), so the cache size cannot be worked out.' };
  const recommendation = recommendContext({
    arch: input.arch,
    weightsBytes: input.weightsBytes,
    usableVramBytes: gpu.usableBytes,
    gpuCount: 1,
    flashAttention: true,
    kvCacheType: 'f16',
    ...(cpu ? { memoryLabel: 'system memory', runtimeBytes: CPU_RUNTIME_BYTES } : {}),
  });
  return { ...base, recommendation, reason: null };
}

async function memoryReport(input: MemoryInput): Promise<{ gpu: GpuReport; cpu: boolean }> {
  const cpu = input.backend?.backend === 'cpu';
  const idle = input.idleOthers ?? 0;
  const idleNote = idle > 0 ? [`Idle built-in models hold ${Math.round(idle / MIB)} MiB; they are unloaded if this one needs the room.`] : [];
  if (input.override !== null) {
    const usable = Math.max(0, input.override - input.heldByOthers);
    const notes = ['Memory set by hand; the engine’s reading is not used.'];
    if (input.heldByOthers > 0) notes.push(`Other built-in models answering now hold ${Math.round(input.heldByOthers / MIB)} MiB of it.`);
    return { gpu: { source: 'override', devices: [], usableBytes: usable, notes: [...notes, ...idleNote] }, cpu };
  }
  const backend = input.backend;
  if (backend && !cpu && backend.vram) {
    const usable = backend.vram.free + input.heldBySelf + idle;
    return { gpu: { source: 'engine', devices: [], usableBytes: usable, notes: [`Free memory on the ${backend.backend.toUpperCase()} device, as the engine reads it.`, ...idleNote] }, cpu };
  }
  if (backend && cpu) {
    const available = await (input.availableRam ?? availableRam)();
    const usable = Math.max(backend.ram.free, available) + input.heldBySelf + idle;
    return { gpu: { source: 'system', devices: [], usableBytes: usable, notes: ['The engine runs on the CPU: the model and its cache live in system memory.', ...idleNote] }, cpu };
  }
  return { gpu: await input.probe(), cpu };
}

/** Memory the OS can give without swapping: MemAvailable on Linux (free memory alone ignores reclaimable cache). */
export async function availableRam(): Promise<number> {
  const meminfo = await readFile('/proc/meminfo', 'utf8').catch(() => null);
  const kb = meminfo ? /^MemAvailable:\s+(\d+)\s+kB/m.exec(meminfo)?.[1] : undefined;
  return kb ? Number(kb) * 1024 : freemem();
}

/**
 * Whether a window is known not to fit, and what the user is told then. Unknown memory or architecture is not
 * "known not to fit": the engine tries, and a failure to allocate is reported as it happens. `needBytes` is what
 * the model takes with this window (weights, runtime, graph, cache): a window the recommendation would not offer
 * (above the trained context, or between its 1024-token steps) still fits when the memory holds it with the same
 * headroom.
 */
export function windowDoesNotFit(advice: ContextAdvice, window: number, needBytes: number | null = null): string | null {
  const rec = advice.recommendation;
  if (!rec || (rec.fits && rec.contextTokens >= window)) return null;
  const usable = advice.gpu.usableBytes;
  if (needBytes !== null && usable !== null && needBytes <= usable - Math.floor(usable * HEADROOM_FRACTION)) return null;
  const gib = (b: number) => `${(b / 1024 ** 3).toFixed(1)} GiB`;
  const free = advice.gpu.usableBytes ?? 0;
  const what = advice.gpu.source === 'system' ? 'system memory' : advice.gpu.source === 'override' ? 'memory (set by hand)' : 'GPU memory';
  const would = rec.fits ? `A window of ${rec.contextTokens.toLocaleString('en-US')} tokens would fit: choose it in Models.` : 'No useful window fits: free some memory or pick a smaller model (a smaller quantization).';
  return `${advice.model} with a ${window.toLocaleString('en-US')}-token window does not fit in the ${gib(free)} of ${what} it may use (weights ${gib(advice.weightsBytes ?? 0)}, then the cache for the window). ${would}`;
}
