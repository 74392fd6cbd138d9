/**
 * Finds the GPUs of this machine and how much memory a model may use on them. Every tool and file is reached
 * through the injected host, under a timeout, so a hung driver never blocks the app: the answer is then
 * `unknown`. A connection to another machine is judged by what its server reports, never by local probes.
 */
import type { GpuDevice, GpuReport, RunningModel } from '../../shared/models';
import type { ProbeHost } from './types';
import { amdDevice, appleDevice, parseNvidiaSmi, parseRocmSmi } from './vendors';

export const PROBE_TIMEOUT_MS = 3_000;
const NVIDIA_ARGS = ['--query-gpu=index,name,memory.total,memory.used,memory.free', '--format=csv,noheader,nounits'];

/** Resolves to `fallback` when `work` takes longer than `ms` (an injected runner may not honour its timeout). */
function within<T>(work: Promise<T>, ms: number, fallback: T): Promise<T> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(fallback), ms);
    work.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      () => {
        clearTimeout(timer);
        resolve(fallback);
      },
    );
  });
}

function report(source: GpuReport['source'], devices: GpuDevice[], notes: string[] = []): GpuReport {
  const discrete = devices.filter((d) => !d.integrated);
  // llama.cpp and Ollama skip an integrated GPU when a discrete one is present; so do we.
  const counted = discrete.length > 0 ? discrete : devices;
  const usable = counted.reduce((sum, d) => sum + d.usableBytes, 0);
  if (devices.some((d) => d.integrated)) notes.push('An integrated GPU shares system memory; it is not counted when a dedicated GPU is present.');
  if (counted.length > 1) notes.push(`${counted.length} GPUs: a model's layers are split across them, so their memory adds up.`);
  return { source, devices, usableBytes: usable > 0 ? usable : null, notes };
}

export function unknownReport(note: string): GpuReport {
  return { source: 'unknown', devices: [], usableBytes: null, notes: [note] };
}

export function overrideReport(bytes: number): GpuReport {
  return {
    source: 'override',
    devices: [],
    usableBytes: bytes,
    notes: ['GPU memory set by hand in Settings; the probe is not used.'],
  };
}

async function probeSysfs(host: ProbeHost, timeout: number): Promise<GpuDevice[]> {
  const cards = (await within(host.listDir('/sys/class/drm'), timeout, [])).filter((c) => /^card\d+$/.test(c));
  const devices: GpuDevice[] = [];
  for (const card of cards) {
    const base = `/sys/class/drm/${card}/device`;
    const read = (f: string) => within(host.readFile(`${base}/${f}`), timeout, null);
    const vendor = (await read('vendor'))?.trim();
    const index = Number(card.slice(4));
    if (vendor === '0x1002') {
      const total = Number((await read('mem_info_vram_total'))?.trim());
      if (!Number.isFinite(total) || total <= 0) continue;
      const used = Number((await read('mem_info_vram_used'))?.trim());
      const name = (await read('product_name'))?.trim() || `AMD GPU (${card})`;
      devices.push(amdDevice(index, name, total, Number.isFinite(used) ? used : null));
    } else if (vendor === '0x8086') {
      // Intel graphics: shared system memory, no VRAM figure of its own; recognized, not counted.
      devices.push({ index, name: `Intel graphics (${card})`, vendor: 'intel', totalBytes: 0, usedBytes: null, freeBytes: null, integrated: true, usableBytes: 0 });
    }
  }
  return devices;
}

/** Probes this machine. Never throws; `unknown` when nothing answers in time. */
export async function probeLocalGpus(host: ProbeHost): Promise<GpuReport> {
  const timeout = host.timeoutMs ?? PROBE_TIMEOUT_MS;
  const run = (cmd: string, args: string[]) => within(host.run(cmd, args, timeout), timeout + 100, { ok: false, stdout: '' });

  if (host.platform === 'darwin') {
    const [mem, brand, wired] = await Promise.all([
      run('sysctl', ['-n', 'hw.memsize']),
      run('sysctl', ['-n', 'machdep.cpu.brand_string']),
      run('sysctl', ['-n', 'iogpu.wired_limit_mb']),
    ]);
    const device = mem.ok ? appleDevice(mem.stdout, brand.ok ? brand.stdout : null, wired.ok ? wired.stdout : null) : null;
    if (!device) return unknownReport('sysctl did not say how much memory this Mac has.');
    const notes = device.vendor === 'apple'
      ? ['Apple silicon shares memory between CPU and GPU; Metal lets the GPU use about 2/3 of it up to 36 GB and 3/4 above (raised by iogpu.wired_limit_mb).']
      : ['This Mac has no Apple silicon GPU that Ollama can use.'];
    return { source: 'sysctl', devices: [device], usableBytes: device.usableBytes > 0 ? device.usableBytes : null, notes };
  }

  const [nvidia, rocm] = await Promise.all([run('nvidia-smi', NVIDIA_ARGS), run('rocm-smi', ['--showmeminfo', 'vram', '--json'])]);
  const nvidiaDevices = nvidia.ok ? parseNvidiaSmi(nvidia.stdout) : [];
  const rocmDevices = rocm.ok ? parseRocmSmi(rocm.stdout) : [];
  if (nvidiaDevices.length > 0 || rocmDevices.length > 0) {
    return report(nvidiaDevices.length > 0 ? 'nvidia-smi' : 'rocm-smi', [...nvidiaDevices, ...rocmDevices]);
  }
  if (host.platform === 'linux') {
    const sysfs = await within(probeSysfs(host, timeout), timeout * 2, []);
    if (sysfs.some((d) => d.usableBytes > 0)) return report('sysfs', sysfs);
    if (sysfs.length > 0) return { ...report('sysfs', sysfs), usableBytes: null };
  }
  // Where to set it is said where the note is shown: the Models screen's reason points to Settings (GPU_UNKNOWN_REASON),
  // and Settings → GPU memory says to type it in its field.
  return unknownReport('No GPU answered (nvidia-smi, rocm-smi, sysfs): GPU memory is unknown.');
}

export function isLoopbackUrl(baseUrl: string): boolean {
  try {
    const host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, '');
    return host === 'localhost' || host === '::1' || /^127\./.test(host);
  } catch {
    return false;
  }
}

/** A server on another machine: what its loaded models use on its GPU (from `/api/ps`) is all we can know. */
export function remoteReport(running: RunningModel[]): GpuReport {
  const vram = running.reduce((s, m) => s + m.sizeVramBytes, 0);
  const notes = ['The server is on another machine: its GPU is judged by what it reports (/api/ps), not by probing this one.'];
  if (running.length > 0) notes.push(`Its loaded models use ${vram} bytes of GPU memory.`);
  if (running.some((m) => m.spilledToCpu)) notes.push('A loaded model spilled to the CPU: the server ran out of GPU memory.');
  return { source: 'server', devices: [], usableBytes: null, notes };
}
