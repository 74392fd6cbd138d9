import type { LegError } from '../leg/http';

/**
 * A failed answer's words with the name of the connection that gave it, said once: "GPU box: Ollama answered HTTP
 * 500…" says which connection failed, but on the connection named "Ollama" that read "Ollama: Ollama answered…", and
 * "Behind nginx: The server answered…" named the server twice. Words that begin with the name keep it; "The server"
 * becomes the name.
 */
export function fromConnection(label: string, said: string): string {
  const SERVER = 'The server ';
  if (said.startsWith(SERVER)) return `${label} ${said.slice(SERVER.length)}`;
  if (said.startsWith(`${label} `) || said.startsWith(`${label}:`)) return said;
  return `${label}: ${said}`;
}

/**
 * A failure of the leg (a timeout, a dropped connection) in words that name the connection by `name` (shared
 * connectionName), as the banner does, where the leg knows only an address ("The server at http://…").
 */
export function legFailure(err: LegError, name: string, baseUrl: string): string {
  if (err.kind === 'unreachable') return `Cannot reach ${name} at ${baseUrl}. Is it running? Start it, or change its address in Settings.`;
  return err.naming(name);
}
