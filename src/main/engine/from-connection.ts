import type { LegError } from '../leg/http';

/** How the built-in engine's own failures begin (engine-host.ts, the builtin dialect). */
const BUILTIN_ENGINE = 'The built-in engine ';

/**
 * A failed answer's words with the name of the connection that gave it, said once: "GPU box: Ollama answered HTTP
 * 500…" says which connection failed, but on the connection named "Ollama" that read "Ollama: Ollama answered…", and
 * "Behind nginx: The server answered…" named the server twice. Words that begin with the name keep it; "The server"
 * becomes the name. The built-in engine's own words name it ("The built-in engine stopped unexpectedly…"): they read
 * "Built-in (llama.cpp): The built-in engine…", and are kept as they are (there is one built-in engine).
 */
export function fromConnection(label: string, said: string): string {
  const SERVER = 'The server ';
  if (said.startsWith(SERVER)) return `${label} ${said.slice(SERVER.length)}`;
  if (said.startsWith(`${label} `) || said.startsWith(`${label}:`) || said.startsWith(BUILTIN_ENGINE)) return said;
  return `${label}: ${said}`;
}

/**
 * A failure of the leg (a timeout, a dropped connection) in words that name the connection by `name` (shared
 * connectionName), as the banner does, where the leg knows only an address ("The server at http://…"). `inSettings`:
 * said where the user already is in Settings (Test connection), which read "…change its address in Settings" there.
 */
export function legFailure(err: LegError, name: string, baseUrl: string, options: { inSettings?: boolean } = {}): string {
  if (err.kind === 'unreachable') return `Cannot reach ${name} at ${baseUrl}. Is it running? Start it, or change its address ${options.inSettings ? 'here' : 'in Settings'}.`;
  return err.naming(name);
}
