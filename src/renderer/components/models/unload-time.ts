/**
 * When a loaded model unloads, as Running says it. A time alone ("unloads 12:00:00 AM") did not say which day, so a
 * day other than today is named ("tomorrow at 09:15", "12 Dec at 09:15"), in the user's locale as the rest of the app
 * writes times. Ollama keeps a model loaded for good with keep_alive -1 and then reports an expiry hundreds of years
 * ahead (its longest duration, about 292 years): that is said as "kept loaded", not as a date (models eyes pass).
 */

/** Further ahead than any keep_alive a person sets: Ollama's "for good". */
const FOR_GOOD_MS = 10 * 365 * 24 * 3600 * 1000;

function sameDay(a: Date, b: Date): boolean {
  return a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
}

/**
 * "unloads at 09:15", "unloads tomorrow at 09:15", "unloads 12 Dec at 09:15" (the year added where it is not this
 * one), "kept loaded" for Ollama's keep_alive -1, "unloading now" once past. Null for a time that does not parse.
 * `locale`: the user's (undefined) unless a test names one.
 */
export function unloadWhen(iso: string | number, now: Date = new Date(), locale?: string): string | null {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return null;
  if (at.getTime() - now.getTime() > FOR_GOOD_MS) return 'kept loaded';
  if (at.getTime() <= now.getTime()) return 'unloading now';
  const time = at.toLocaleTimeString(locale, { timeStyle: 'short' });
  if (sameDay(at, now)) return `unloads at ${time}`;
  const tomorrow = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
  if (sameDay(at, tomorrow)) return `unloads tomorrow at ${time}`;
  const day = at.toLocaleDateString(locale, { day: 'numeric', month: 'short', ...(at.getFullYear() !== now.getFullYear() ? { year: 'numeric' } : {}) });
  return `unloads ${day} at ${time}`;
}
