/** What the connection forms (add, edit) make of what was typed, and say about the address saved. Pure. */
import type { ConnectionInput, ServerKind } from '../../../shared/connections';
import { isHostAlone, readAddress, schemeAssumedWords, usualPort } from '../../../shared/server-address';

/** A form's fields: `id` when it edits a saved connection; `defaultLabel` when the name is left empty. */
export interface TypedConnection {
  id?: string;
  kind: ServerKind;
  label: string;
  defaultLabel: string;
  url: string;
  key: string;
  /** The editor's "Remove saved key": an empty key tells main to delete the saved one (settings audit #8). */
  removeKey?: boolean;
}

/**
 * What to save (a key only where one was typed: none keeps the saved one, unless it is to be removed), or why the
 * address cannot be.
 */
export function typedConnection(f: TypedConnection): { refused: string } | { input: ConnectionInput } {
  // `localhost:11434` is http://localhost:11434, and `localhost` for Ollama http://localhost:11434
  // (shared/server-address.ts); anything else not http(s) is refused.
  const baseUrl = readAddress(f.url, f.kind).address;
  if (!/^https?:\/\/\S+$/.test(baseUrl)) return { refused: addressRefusal(f.url, f.kind) };
  return { input: { ...(f.id !== undefined ? { id: f.id } : {}), kind: f.kind, label: f.label.trim() || f.defaultLabel, baseUrl, ...apiKeyField(f) } };
}

/** Anthropic's API, the address an Anthropic connection starts with. */
const ANTHROPIC_API = 'https://api.anthropic.com';

/**
 * Why a typed address is refused: a host alone, of a kind with no usual port, lacks its port (an OpenAI-compatible
 * server: LM Studio's 1234 given as the example, with the host typed) or, for Anthropic, whose API is https on a
 * cloud host with no port to add, its https:// (the host typed with it, and Anthropic's own address); anything else
 * lacks its http(s)://.
 */
function addressRefusal(typed: string, kind: ServerKind): string {
  if (!isHostAlone(typed)) return 'Enter an address that starts with http:// or https://';
  const text = typed.trim();
  if (kind === 'anthropic') {
    const own = `https://${text}`.replace(/\/+$/, '') === ANTHROPIC_API;
    return own ? `Enter the address with https:// before it: ${ANTHROPIC_API}` : `Enter the address with https:// before it, such as https://${text}, or ${ANTHROPIC_API} for Anthropic's own API`;
  }
  const host = text.split('/')[0] ?? '';
  return `Add the port the server listens on, such as ${host}:1234 (LM Studio's), or enter an address that starts with http:// or https://`;
}

function apiKeyField(f: TypedConnection): { apiKey?: string } {
  if (f.key !== '') return { apiKey: f.key };
  return f.removeKey ? { apiKey: '' } : {};
}

/**
 * What was assumed of the address typed, said so the saved one is no surprise: `http://` before one typed without
 * a scheme (`https://` on port 443 and for Anthropic), the kind's usual port after a host typed alone ("Saved as
 * http://localhost:11434, Ollama's usual port."), and a trailing /v1 dropped by main (Firebrand asks /v1/... itself). Null when it was saved as typed.
 * `typed`: the field as the user typed it; `kind`: the connection's.
 */
export function savedNote(typed: string, saved: string, kind: ServerKind): string | null {
  const read = readAddress(typed, kind);
  const dropped = saved !== read.address.replace(/\/+$/, '');
  const port = read.assumed === 'scheme-and-port' ? usualPort(kind) : undefined;
  const why = [
    schemeAssumedWords(typed, kind),
    dropped ? 'Firebrand adds /v1/… to the address itself, so the /v1 at its end was left out' : null,
  ].filter((w): w is string => w !== null);
  const said = port ? `Saved as ${saved}, ${port.server}'s usual port` : `Saved as ${saved}`;
  if (why.length === 0) return port ? `${said}.` : null;
  return `${said}: ${why.join('; ')}.`;
}
