/**
 * Whether a user-typed server address is one the leg can use: an absolute http(s) URL with a host and nothing
 * that `new URL` rejects (spaces, a port over 65535). The schema's `^https?://` only checks the prefix, and a
 * saved address that cannot parse would fail every later request with a less helpful message.
 */
export function serverUrlProblem(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `“${raw.slice(0, 200)}” is not a valid address. Use a full URL such as http://127.0.0.1:11434.`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'A server address starts with http:// or https://.';
  if (url.hostname === '') return 'A server address needs a host, such as http://127.0.0.1:11434.';
  if (url.username !== '' || url.password !== '') return 'Put an API key in its own field, not in the address.';
  return undefined;
}

/** A server's base URL (as saved, maybe with a trailing slash) joined with an API path. */
export function joinUrl(base: string, path: string): string {
  return base.replace(/\/+$/, '') + path;
}
