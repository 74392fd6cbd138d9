/**
 * Numbers as people read them. Token counts and windows in K of 1024 (4096 → 4K, 131072 → 128K, as model cards
 * and servers write them); memory and file sizes in binary units labelled as such (GiB, MiB: a "24 GB" card holds
 * 24 GiB, and what you type for it means the same); durations in s / min / h.
 */

export function formatTokens(n: number): string {
  if (!Number.isFinite(n)) return '?';
  if (Math.abs(n) < 1000) return String(Math.round(n));
  const k = n / 1024;
  if (Number.isInteger(k) || k >= 10) return `${Math.round(k)}K`;
  return `${k.toFixed(1).replace(/\.0$/, '')}K`;
}

/**
 * Exact counts where the digits matter (the context arithmetic, the context meter's words): 43,008. Grouped here
 * as en-US groups them rather than by `toLocaleString`: a page's first `toLocaleString` sets up ICU's number
 * formatting (about 40 ms), and that fell on the first chat opened, in the meter (bench/long-chat).
 */
export function formatExactTokens(n: number): string {
  const r = Math.round(n);
  if (!(Math.abs(r) < 1e21)) return r.toLocaleString('en-US');
  return `${r < 0 ? '-' : ''}${String(Math.abs(r)).replace(/\B(?=(\d{3})+$)/g, ',')}`;
}

export const GIB = 1024 ** 3;

export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return '—';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = bytes;
  let i = 0;
  while (Math.abs(v) >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(i === 0 ? 0 : 1)} ${units[i] ?? 'B'}`;
}

export function formatDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '—';
  if (seconds < 60) return `${Math.round(seconds)} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
  return `${Math.floor(seconds / 3600)} h ${Math.round((seconds % 3600) / 60)} min`;
}

/** "1 model", "2 models". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
