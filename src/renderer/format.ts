/**
 * Numbers as people read them. Token counts and windows in K of 1024 (4096 → 4K, 131072 → 128K, as model cards
 * and servers write them); memory and file sizes in binary units labelled as such (GiB, MiB: a "24 GB" card holds
 * 24 GiB, and what you type for it means the same); durations in s / min / h / d.
 */

export function formatTokens(n: number): string {
  if (!Number.isFinite(n)) return '?';
  if (Math.abs(n) < 1000) return String(Math.round(n));
  const k = n / 1024;
  if (Number.isInteger(k) || k >= 10) return `${Math.round(k)}K`;
  return `${k.toFixed(1).replace(/\.0$/, '')}K`;
}

/** Counts of a million tokens (1024 × 1024, as 1M-context models are written) and more: 1,101,005 → 1.05M. */
function formatMillions(n: number): string {
  const m = n / 1024 ** 2;
  return `${m.toFixed(m >= 10 ? 1 : 2).replace(/\.?0+$/, '')}M`;
}

/** Share of the window within which a used/window pair is written in exact digits. */
const CLOSE_SHARE = 0.1;

/**
 * A used/window pair, e.g. the meter's "≈3.5K / 8K" (context audit #3). Near the window, or where the rounded
 * forms would read the same ("8K / 8K" for 8,191 of 8,192), both are written in exact digits, so over or under
 * is never hidden: "8,191 / 8,192". Far from it, in K; a million and more in M.
 */
export function formatTokenPair(used: number, window: number): string {
  return tokenPairParts(used, window).join(' / ');
}

/** The two halves of `formatTokenPair`, for sentences that put words between them. */
export function tokenPairParts(used: number, window: number): [string, string] {
  const short = (n: number) => (Math.abs(n) >= 1024 ** 2 ? formatMillions(n) : formatTokens(n));
  const close = window > 0 && Math.abs(window - used) <= window * CLOSE_SHARE;
  if (Number.isFinite(used) && Number.isFinite(window) && (close || (short(used) === short(window) && used !== window))) {
    return [formatExactTokens(used), formatExactTokens(window)];
  }
  return [short(used), short(window)];
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

/**
 * A time left: "45 s", "3 min 5 s", "1 h 20 min", "2 d 5 h". Each form is rounded to its smallest unit before it
 * is split, so a rounding that reaches the next unit carries into it: 7,170 s is "2 h 0 min", never "1 h 60 min".
 */
export function formatDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '—';
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 24 * 60) return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
  const hours = Math.round(seconds / 3600);
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

/** "1 model", "2 models". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
