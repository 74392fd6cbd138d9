/**
 * A download that could not reach its source, in words. It said "The download stopped: getaddrinfo ENOTFOUND
 * huggingface.co. Start it again to resume." to a user who was offline: a system call's name and an error code,
 * and a "start it again" beside a button called Resume.
 */

import { resumeWords } from '../../../shared/resume-words';

/** What each socket error means to someone at the keyboard; `host` is the address's computer. */
const REASONS: Record<string, (host: string) => string> = {
  ENOTFOUND: (host) => `${host} could not be found: this machine may be offline, or the address may be wrong.`,
  EAI_AGAIN: (host) => `${host} could not be looked up: this machine may be offline.`,
  ECONNREFUSED: (host) => `${host} refused the connection: nothing is listening at that address.`,
  EHOSTUNREACH: (host) => `${host} cannot be reached from here: this machine may be offline.`,
  ENETUNREACH: (host) => `${host} cannot be reached from here: this machine may be offline.`,
  ETIMEDOUT: (host) => `${host} did not answer in time: this machine may be offline, or it is slow.`,
  UND_ERR_CONNECT_TIMEOUT: (host) => `${host} did not answer in time: this machine may be offline, or it is slow.`,
  ECONNRESET: (host) => `the connection to ${host} broke.`,
  UND_ERR_SOCKET: (host) => `the connection to ${host} broke.`,
};

/** The socket error's code, where undici wrapped it (in `cause`, or in `errors` for IPv4 and IPv6 tries). */
function socketCode(err: unknown, depth = 0): string | undefined {
  if (depth > 4 || typeof err !== 'object' || err === null) return undefined;
  const o = err as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof o.code === 'string' && o.code in REASONS) return o.code;
  for (const inner of [o.cause, ...(Array.isArray(o.errors) ? (o.errors as unknown[]) : [])]) {
    const code = socketCode(inner, depth + 1);
    if (code !== undefined) return code;
  }
  return undefined;
}

/**
 * Why the download of `file` from `url` stopped, where its source could not be reached; null for any other failure.
 * `bytes`: how much is on disk, kept for Resume to go on from.
 */
export function unreachableMessage(err: unknown, file: string, url: string, bytes: number): string | null {
  const code = socketCode(err);
  if (code === undefined) return null;
  let host: string;
  try {
    host = new URL(url).host;
  } catch {
    host = 'the source';
  }
  const reason = REASONS[code]?.(host) ?? '';
  return `The download of ${file} stopped: ${reason} ${resumeWords(bytes)}`;
}
