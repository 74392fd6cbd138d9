/** What the connection forms (add, edit) make of what was typed, and say about the address saved. Pure. */
import type { ConnectionInput, ServerKind } from '../../../shared/connections';
import { schemeWasAssumed, withAssumedScheme } from '../../../shared/server-address';

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
  // `localhost:11434` is http://localhost:11434 (shared/server-address.ts); anything else not http(s) is refused.
  const baseUrl = withAssumedScheme(f.url);
  if (!/^https?:\/\/\S+$/.test(baseUrl)) return { refused: 'Enter an address that starts with http:// or https://' };
  return { input: { ...(f.id !== undefined ? { id: f.id } : {}), kind: f.kind, label: f.label.trim() || f.defaultLabel, baseUrl, ...apiKeyField(f) } };
}

function apiKeyField(f: TypedConnection): { apiKey?: string } {
  if (f.key !== '') return { apiKey: f.key };
  return f.removeKey ? { apiKey: '' } : {};
}

/**
 * What was assumed of the address typed, said so the saved one is no surprise: `http://` before one typed without
 * a scheme, and a trailing /v1 dropped by main (Firebrand asks /v1/... itself). Null when it was saved as typed.
 * `typed`: the field as the user typed it.
 */
export function savedNote(typed: string, saved: string): string | null {
  const assumed = schemeWasAssumed(typed);
  const dropped = saved !== withAssumedScheme(typed).replace(/\/+$/, '');
  const why = [
    assumed ? 'an address typed without http:// or https:// is taken as http://, which local servers speak' : null,
    dropped ? 'Firebrand adds /v1/… to the address itself, so the /v1 at its end was left out' : null,
  ].filter((w): w is string => w !== null);
  if (why.length === 0) return null;
  return `Saved as ${saved}: ${why.join('; ')}.`;
}
