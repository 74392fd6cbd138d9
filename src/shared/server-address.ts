/**
 * A server address as the user typed it, with what was left out assumed where it can be: `localhost:11434`,
 * `192.168.1.20:8080` and `my-box:11434` were refused with "starts with http://", though every local server speaks
 * plain http. A host and a port (and maybe a path) become `http://…` (`https://…` on port 443, and for Anthropic's
 * API, which is https only); a host alone (`localhost`, `gpu-box.local`,
 * maybe with a path) becomes `http://host:PORT…` where the server's kind has a usual port (Ollama 11434,
 * llama-server 8080). Anything else comes back as typed (trimmed), for the forms' and main's checks to accept
 * (`https://…` stays https, `http://host` keeps port 80) or refuse. One rule for every place an address is typed
 * (Settings → Ollama address, the add and edit forms of Settings → Connections, `--ollama`, MCP servers).
 */
import type { ServerKind } from './connections';

/**
 * What was assumed of a typed address: the scheme, http:// (`localhost:11434`) or https:// (`api.anthropic.com:443`,
 * and any host and port for Anthropic: see readAddress), or the scheme and the kind's port (`localhost`).
 */
export type AddressAssumed = 'scheme' | 'https' | 'scheme-and-port';

/** A typed address as it is to be saved, and what was assumed to make it one (null: saved as typed, trimmed). */
export interface ReadAddress {
  address: string;
  assumed: AddressAssumed | null;
}

/**
 * The port a kind of server listens on when it was not told another. An OpenAI-compatible server has no one usual
 * port (LM Studio 1234, vLLM 8000, a gateway 443…), nor has Anthropic's API (https, a cloud host): a host alone
 * typed for those is still refused, its port cannot be guessed.
 */
const USUAL_PORT: Partial<Record<ServerKind, { port: number; server: string }>> = {
  ollama: { port: 11434, server: 'Ollama' },
  'llama-server': { port: 8080, server: 'llama-server' },
};

/** The port a kind's server listens on unless told another, and the server's name ("Ollama"); undefined: none. */
export function usualPort(kind: ServerKind): { port: number; server: string } | undefined {
  return USUAL_PORT[kind];
}

/** `typed` read as an address for a server of `kind` (none: MCP servers and others with no usual port). */
export function readAddress(typed: string, kind?: ServerKind): ReadAddress {
  const text = typed.trim();
  const hostAndPort = HOST_AND_PORT.exec(text);
  if (hostAndPort) {
    // `api.anthropic.com:443` was saved as http://api.anthropic.com:443, which no server on 443 answers: port 443 is
    // https's (saved without it, as https:// implies it), and Anthropic's API is https only, whatever the port.
    const [, host = '', port = '', path = ''] = hostAndPort;
    if (port === '443') return { address: `https://${host}${path}`, assumed: 'https' };
    if (kind === 'anthropic') return { address: `https://${text}`, assumed: 'https' };
    return { address: `http://${text}`, assumed: 'scheme' };
  }
  const port = kind === undefined ? undefined : USUAL_PORT[kind]?.port;
  const alone = HOST_ALONE.exec(text);
  if (port !== undefined && alone) return { address: `http://${alone[1]}:${port}${alone[2] ?? ''}`, assumed: 'scheme-and-port' };
  return { address: text, assumed: null };
}

export function withAssumedScheme(typed: string, kind?: ServerKind): string {
  return readAddress(typed, kind).address;
}

/** Whether an address was typed without its scheme, and so saved with `http://` or `https://` (and maybe the port) assumed. */
export function schemeWasAssumed(typed: string, kind?: ServerKind): boolean {
  return readAddress(typed, kind).assumed !== null;
}

/**
 * Why the scheme was assumed, for the note after "Saved as …: " (null: it was typed, or the port was assumed too,
 * which its own words say). `kind`: the connection's; none for an MCP server.
 */
export function schemeAssumedWords(typed: string, kind?: ServerKind): string | null {
  const read = readAddress(typed, kind);
  if (read.assumed === 'scheme') return 'an address typed without http:// or https:// is taken as http://, which local servers speak';
  if (read.assumed !== 'https') return null;
  return HOST_AND_PORT.exec(typed.trim())?.[2] === '443'
    ? 'an address typed with port 443 and without http:// or https:// is taken as https://, which that port is for'
    : "an Anthropic address typed without https:// is taken as https://, the only one Anthropic's API answers";
}

/** Whether `typed` is a host with nothing else (maybe a path): for a kind with no usual port, it lacks the port. */
export function isHostAlone(typed: string): boolean {
  return HOST_ALONE.test(typed.trim());
}

/**
 * A host name, IPv4 address or bracketed IPv6 address. `localhost:11434` is read by `new URL` as the scheme
 * `localhost:`, and `localhost` alone not at all, which is why this is not left to it.
 */
const HOST = String.raw`(?:\[[0-9a-f:.]+\]|[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*)`;
/** A host and a port, maybe with a path: [host, port, path]. */
const HOST_AND_PORT = new RegExp(String.raw`^(${HOST}):(\d{1,5})(\/\S*)?$`, 'i');
const HOST_ALONE = new RegExp(String.raw`^(${HOST})(\/\S*)?$`, 'i');
