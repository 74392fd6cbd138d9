/**
 * A server address as the user typed it, with the scheme assumed where none was typed: `localhost:11434`,
 * `192.168.1.20:8080` and `my-box:11434` were refused with "starts with http://", though every local server speaks
 * plain http. A host and a port (and maybe a path) become `http://…`; anything else comes back as typed (trimmed),
 * for the forms' and main's checks to accept (`https://…` stays https) or refuse. One rule for every place an
 * address is typed (Settings → Ollama address, the add and edit forms of Settings → Connections).
 */
export function withAssumedScheme(typed: string): string {
  const text = typed.trim();
  return HOST_AND_PORT.test(text) ? `http://${text}` : text;
}

/** Whether an address was typed without its scheme, and so saved with the `http://` assumed. */
export function schemeWasAssumed(typed: string): boolean {
  return HOST_AND_PORT.test(typed.trim());
}

/**
 * A host name, IPv4 address or bracketed IPv6 address, a port, and maybe a path. A port is required: `localhost`
 * alone or `lmstudio.local` is left to be refused, as its server's port (11434, 8080, 1234…) cannot be guessed.
 * `localhost:11434` is read by `new URL` as the scheme `localhost:`, which is why this is not left to it.
 */
const HOST_AND_PORT = /^(?:\[[0-9a-f:.]+\]|[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*):\d{1,5}(?:\/\S*)?$/i;
