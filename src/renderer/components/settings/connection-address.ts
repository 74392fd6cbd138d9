/** What the connection forms (add, edit) make of what was typed, and say about the address saved. Pure. */
import type { ConnectionInput, ServerKind } from '../../../shared/connections';

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
  const baseUrl = f.url.trim();
  if (!/^https?:\/\/\S+$/.test(baseUrl)) return { refused: 'Enter an address that starts with http:// or https://' };
  return { input: { ...(f.id !== undefined ? { id: f.id } : {}), kind: f.kind, label: f.label.trim() || f.defaultLabel, baseUrl, ...apiKeyField(f) } };
}

function apiKeyField(f: TypedConnection): { apiKey?: string } {
  if (f.key !== '') return { apiKey: f.key };
  return f.removeKey ? { apiKey: '' } : {};
}

/**
 * Main drops a trailing /v1 (Firebrand asks /v1/... itself): said, so the saved address is no surprise. Null when
 * it was saved as typed.
 */
export function savedNote(typed: string, saved: string): string | null {
  return saved !== typed.trim().replace(/\/+$/, '') ? `Saved as ${saved}: Firebrand adds /v1/… to the address itself, so the /v1 at its end was left out.` : null;
}
