/**
 * Serve mode's access rules as pure functions (issue 15), so each is tested on its own:
 * - the Host a request names must be an IP address, `localhost`, or a name the user allowed (`--allow-host`):
 *   a DNS-rebinding page reaches us under ITS name, which is none of these;
 * - a browser socket's Origin must be the very host the request came in on (so `--host 0.0.0.0` opened as
 *   http://192.168.1.5:8765 and `--host localhost` opened as http://127.0.0.1:8765 both work), nothing else;
 * - the token is at least 128 bits.
 */
import { isIP } from 'node:net';

/** The Host header, checked: its `host[:port]` lowercased, or undefined when serve mode must not answer to it. */
export function allowedHost(header: string | undefined, allowHosts: readonly string[]): string | undefined {
  if (!header || header.length > 300) return undefined;
  let url: URL;
  try {
    url = new URL(`http://${header}`);
  } catch {
    return undefined;
  }
  // `Host: a@b` or `Host: a/b` parse as something else entirely: only a bare host[:port] is a host.
  if (url.username || url.password || url.pathname !== '/' || url.search || url.hash) return undefined;
  const name = url.hostname.toLowerCase();
  const literal = name.startsWith('[') ? name.slice(1, -1) : name;
  const ok = isIP(literal) !== 0 || name === 'localhost' || allowHosts.some((h) => h.toLowerCase() === name);
  return ok ? url.host.toLowerCase() : undefined;
}

/**
 * Whether a socket's Origin may use the app: absent (not a browser: the token alone decides), or exactly the
 * http(s) origin of the host the request came in on.
 */
export function originMatchesHost(origin: string | undefined, host: string): boolean {
  if (origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === origin.toLowerCase() && url.host === host;
}

const HEX = /^[0-9a-fA-F]+$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** Why a `--token` is refused, or undefined: URL-safe characters only, and at least 128 bits of them. */
export function tokenProblem(token: string): string | undefined {
  if (!BASE64URL.test(token)) return '--token may use only letters, digits, "-" and "_" (it travels in URLs).';
  const bits = token.length * (HEX.test(token) ? 4 : 6);
  if (bits < 128) {
    return `--token is too short to guess-proof serve mode (${bits} bits; at least 128: 32 hex characters or 22 letters and digits).`;
  }
  return undefined;
}

/** The pathname of a request target, decoded; undefined for a target that is not a path or a bad `%` escape. */
export function requestPath(target: string | undefined): { path: string; query: URLSearchParams } | undefined {
  if (!target?.startsWith('/')) return undefined;
  let url: URL;
  try {
    url = new URL(target, 'http://firebrand.invalid');
    // `//other.host/x` is a scheme-relative URL, not a path of ours.
    if (url.host !== 'firebrand.invalid') return undefined;
    return { path: decodeURIComponent(url.pathname), query: url.searchParams };
  } catch {
    return undefined;
  }
}
