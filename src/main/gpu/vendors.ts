/**
 * One parser per source of GPU memory numbers. Each takes the raw text a tool or sysfs gave and returns
 * devices; formats are recorded under test/fixtures/gpu/ with a note naming where each comes from.
 */
import type { GpuDevice } from '../../shared/models';

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;
/** Ollama treats an AMD GPU with under 1 GiB of its own VRAM as an integrated APU and skips it (amd_linux.go). */
export const IGPU_VRAM_LIMIT = GIB;

/** `nvidia-smi --query-gpu=index,name,memory.total,memory.used,memory.free --format=csv,noheader,nounits` (MiB). */
export function parseNvidiaSmi(stdout: string): GpuDevice[] {
  const out: GpuDevice[] = [];
  for (const line of stdout.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    const cells = line.split(',').map((c) => c.trim());
    if (cells.length < 5) continue;
    const [index, name, total, used, free] = cells;
    const totalMib = Number(total);
    if (!Number.isFinite(totalMib) || totalMib <= 0) continue;
    const usedMib = Number(used);
    const freeMib = Number(free);
    out.push({
      index: Number(index) || out.length,
      name: name ?? 'NVIDIA GPU',
      vendor: 'nvidia',
      totalBytes: totalMib * MIB,
      usedBytes: Number.isFinite(usedMib) ? usedMib * MIB : null,
      freeBytes: Number.isFinite(freeMib) ? freeMib * MIB : null,
      // Jetson/Grace boards report shared memory; a desktop NVIDIA card is never integrated.
      integrated: /jetson|orin|tegra/i.test(name ?? ''),
      usableBytes: totalMib * MIB,
    });
  }
  return out;
}

/** `rocm-smi --showmeminfo vram --json`: `{ "card0": { "VRAM Total Memory (B)": "…", "VRAM Total Used Memory (B)": "…" } }`. */
export function parseRocmSmi(stdout: string): GpuDevice[] {
  let json: unknown;
  try {
    json = JSON.parse(stdout);
  } catch {
    return [];
  }
  if (typeof json !== 'object' || json === null) return [];
  const out: GpuDevice[] = [];
  for (const [card, value] of Object.entries(json as Record<string, unknown>)) {
    if (!/^card\d+$/.test(card) || typeof value !== 'object' || value === null) continue;
    const v = value as Record<string, unknown>;
    const total = Number(v['VRAM Total Memory (B)']);
    const used = Number(v['VRAM Total Used Memory (B)']);
    if (!Number.isFinite(total) || total <= 0) continue;
    out.push(amdDevice(Number(card.slice(4)), `AMD GPU (${card})`, total, Number.isFinite(used) ? used : null));
  }
  return out;
}

export function amdDevice(index: number, name: string, total: number, used: number | null): GpuDevice {
  return {
    index,
    name,
    vendor: 'amd',
    totalBytes: total,
    usedBytes: used,
    freeBytes: used === null ? null : Math.max(0, total - used),
    integrated: total < IGPU_VRAM_LIMIT,
    usableBytes: total,
  };
}

/**
 * Apple silicon: unified memory, of which Metal lets the GPU wire only part (`recommendedMaxWorkingSetSize`).
 * Observed defaults: about 2/3 of RAM up to 36 GB (16 GB → 10.67 GB, exo-explore/exo#1672) and 3/4 above
 * (gpustack/gpustack#1375; sgl-project/sglang#29949 "roughly 65–75% of RAM"). A user who raised
 * `iogpu.wired_limit_mb` gets that value instead (AlexsJones/llmfit#570: llama-server reports the same).
 */
export function appleUsableBytes(totalBytes: number, wiredLimitMb: number | null): number {
  if (wiredLimitMb !== null && wiredLimitMb > 0) return Math.min(totalBytes, wiredLimitMb * MIB);
  return Math.floor(totalBytes <= 36 * GIB ? (totalBytes * 2) / 3 : (totalBytes * 3) / 4);
}

export function appleDevice(memsize: string, brand: string | null, wiredLimit: string | null): GpuDevice | null {
  const total = Number(memsize.trim());
  if (!Number.isFinite(total) || total <= 0) return null;
  const name = brand?.trim() || 'Apple GPU';
  const limit = wiredLimit === null ? null : Number(wiredLimit.trim());
  const appleSilicon = /apple/i.test(name);
  return {
    index: 0,
    name,
    // An Intel Mac's GPU shares memory too but Ollama does not use Metal there: nothing usable.
    vendor: appleSilicon ? 'apple' : 'intel',
    totalBytes: total,
    usedBytes: null,
    freeBytes: null,
    integrated: true,
    usableBytes: appleSilicon ? appleUsableBytes(total, limit !== null && Number.isFinite(limit) ? limit : null) : 0,
  };
}
