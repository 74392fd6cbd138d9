/** What the connection forms (add, edit) say about a typed server address. Pure. */

/** Why a typed address cannot be saved, or null. */
export function addressProblem(typed: string): string | null {
  return /^https?:\/\/\S+$/.test(typed.trim()) ? null : 'Enter an address that starts with http:// or https://';
}

/**
 * Main drops a trailing /v1 (Firebrand asks /v1/... itself): said, so the saved address is no surprise. Null when
 * it was saved as typed.
 */
export function savedNote(typed: string, saved: string): string | null {
  return saved !== typed.trim().replace(/\/+$/, '') ? `Saved as ${saved}: Firebrand adds /v1/… to the address itself, so the /v1 at its end was left out.` : null;
}
