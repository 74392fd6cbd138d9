import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { isLoopbackUrl, overrideReport, probeLocalGpus, remoteReport } from '../../../src/main/gpu/probe-gpu';
import type { CommandResult, ProbeHost } from '../../../src/main/gpu/types';

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/gpu/${name}`, import.meta.url), 'utf8');
const MIB = 1024 * 1024;
const GIB = 1024 * MIB;

/** A host whose commands answer from a table (key: "cmd arg1 …"); anything else is "not installed". */
function host(platform: string, commands: Record<string, string | 'hang'>, files: Record<string, string> = {}): ProbeHost & { calls: string[] } {
  const calls: string[] = [];
  return {
    platform,
    calls,
    timeoutMs: 50,
    run: (cmd, args) => {
      const key = [cmd, ...args].join(' ');
      calls.push(key);
      const found = Object.entries(commands).find(([k]) => key.startsWith(k));
      if (!found) return Promise.resolve<CommandResult>({ ok: false, stdout: '' });
      if (found[1] === 'hang') return new Promise<CommandResult>(() => {});
      return Promise.resolve({ ok: true, stdout: found[1] });
    },
    readFile: (path) => Promise.resolve(files[path] ?? null),
    listDir: (path) => Promise.resolve(path === '/sys/class/drm' ? [...new Set(Object.keys(files).map((f) => /\/drm\/(card\d+)\//.exec(f)?.[1]).filter((c): c is string => !!c)), 'renderD128'] : []),
  };
}

function sysfsFiles(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const card of ['card0', 'card1']) {
    for (const f of ['vendor', 'mem_info_vram_total', 'mem_info_vram_used']) out[`/sys/class/drm/${card}/device/${f}`] = fixture(`${dir}/${card}.${f}`);
  }
  return out;
}

describe('the GPU probe, fed recorded outputs', () => {
  it('reads one NVIDIA GPU from nvidia-smi', async () => {
    const h = host('linux', { 'nvidia-smi': fixture('nvidia-smi-one-gpu.txt') });
    const r = await probeLocalGpus(h);
    expect(r.source).toBe('nvidia-smi');
    expect(r.devices).toEqual([
      { index: 0, name: 'NVIDIA GeForce RTX 3060', vendor: 'nvidia', totalBytes: 12 * GIB, usedBytes: 1043 * MIB, freeBytes: 10988 * MIB, integrated: false, usableBytes: 12 * GIB },
    ]);
    expect(r.usableBytes).toBe(12 * GIB);
    expect(h.calls[0]).toBe('nvidia-smi --query-gpu=index,name,memory.total,memory.used,memory.free --format=csv,noheader,nounits');
  });

  it('reports each of two NVIDIA GPUs and adds their memory up', async () => {
    const r = await probeLocalGpus(host('linux', { 'nvidia-smi': fixture('nvidia-smi-two-gpus.txt') }));
    expect(r.devices.map((d) => [d.index, d.name, d.totalBytes])).toEqual([
      [0, 'NVIDIA GeForce RTX 4090', 24564 * MIB],
      [1, 'NVIDIA GeForce RTX 3090', 24576 * MIB],
    ]);
    expect(r.usableBytes).toBe((24564 + 24576) * MIB);
    expect(r.notes.join(' ')).toContain('2 GPUs');
  });

  it('reads AMD VRAM from rocm-smi', async () => {
    const r = await probeLocalGpus(host('linux', { 'rocm-smi --showmeminfo vram --json': fixture('rocm-smi-vram.json') }));
    expect(r.source).toBe('rocm-smi');
    expect(r.devices[0]).toMatchObject({ vendor: 'amd', totalBytes: 17163091968, usedBytes: 1174605824, integrated: false });
    expect(r.usableBytes).toBe(17163091968);
  });

  it('reads AMD VRAM from sysfs and recognizes the APU as integrated', async () => {
    const r = await probeLocalGpus(host('linux', {}, sysfsFiles('sysfs-rx7800xt-plus-apu')));
    expect(r.source).toBe('sysfs');
    expect(r.devices.map((d) => [d.index, d.totalBytes, d.integrated])).toEqual([
      [0, 17163091968, false],
      [1, 536870912, true],
    ]);
    expect(r.usableBytes).toBe(17163091968); // the APU is not counted beside a dedicated card
    expect(r.notes.join(' ')).toContain('integrated');
  });

  it('reads Apple unified memory from sysctl and counts the part Metal lets the GPU use', async () => {
    const d = 'sysctl-m2-pro-32gb';
    const h = host('darwin', {
      'sysctl -n hw.memsize': fixture(`${d}/hw.memsize`),
      'sysctl -n machdep.cpu.brand_string': fixture(`${d}/machdep.cpu.brand_string`),
      'sysctl -n iogpu.wired_limit_mb': fixture(`${d}/iogpu.wired_limit_mb`),
    });
    const r = await probeLocalGpus(h);
    expect(r.source).toBe('sysctl');
    expect(r.devices[0]).toMatchObject({ name: 'Apple M2 Pro', vendor: 'apple', totalBytes: 32 * GIB, integrated: true });
    expect(r.usableBytes).toBe(Math.floor((32 * GIB * 2) / 3));
    expect(h.calls.some((c) => c.startsWith('nvidia-smi'))).toBe(false);
  });

  it('honours a raised iogpu.wired_limit_mb and uses 3/4 above 36 GB', async () => {
    const raised = await probeLocalGpus(host('darwin', { 'sysctl -n hw.memsize': String(32 * GIB), 'sysctl -n machdep.cpu.brand_string': 'Apple M1 Max', 'sysctl -n iogpu.wired_limit_mb': '26000' }));
    expect(raised.usableBytes).toBe(26000 * MIB);
    const big = await probeLocalGpus(host('darwin', { 'sysctl -n hw.memsize': String(64 * GIB), 'sysctl -n machdep.cpu.brand_string': 'Apple M3 Max' }));
    expect(big.usableBytes).toBe(48 * GIB);
  });

  it('says unknown when nothing answers', async () => {
    const r = await probeLocalGpus(host('linux', {}));
    expect(r).toMatchObject({ source: 'unknown', devices: [], usableBytes: null });
    expect(r.notes[0]).toContain('unknown');
  });

  it('gives up on a hanging command after its timeout and says unknown', async () => {
    // On a fake clock: the host's 50 ms per command is what ends the probe, not the 3 s default (which the
    // clock never reaches here), and no real time passes, so a busy machine cannot change the outcome.
    vi.useFakeTimers();
    try {
      let settled = false;
      const probe = probeLocalGpus(host('linux', { 'nvidia-smi': 'hang', 'rocm-smi': 'hang' })).finally(() => (settled = true));
      await vi.advanceTimersByTimeAsync(1_000);
      expect(settled).toBe(true);
      expect((await probe).source).toBe('unknown');
    } finally {
      vi.useRealTimers();
    }
  });

  it('uses a manual override as is', () => {
    expect(overrideReport(10 * GIB)).toMatchObject({ source: 'override', usableBytes: 10 * GIB });
  });

  it('judges a remote server by /api/ps, never by local probes', () => {
    expect(isLoopbackUrl('http://127.0.0.1:11434')).toBe(true);
    expect(isLoopbackUrl('http://localhost:11434')).toBe(true);
    expect(isLoopbackUrl('http://[::1]:11434')).toBe(true);
    expect(isLoopbackUrl('http://192.168.1.20:11434')).toBe(false);
    const r = remoteReport([{ name: 'qwen3:14b', sizeBytes: 11e9, sizeVramBytes: 8e9, contextLength: 8192, expiresAt: null, spilledToCpu: true }]);
    expect(r.source).toBe('server');
    expect(r.notes.join(' ')).toContain('spilled to the CPU');
  });
});
