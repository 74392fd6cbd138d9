/**
 * A stdio program that printed something other than MCP's messages while starting (mcpstart #1): a banner, a usage
 * text, a shell's complaint, bytes. Its first lines, made readable, are the reason it failed, so the user sees at
 * once what it printed instead of "Starting…" until the start timeout.
 */

/**
 * How long a starting program may stay silent after printing lines that are not messages before it is taken for
 * one that does not speak MCP. Servers that print a banner and then speak MCP mostly answer `initialize` right after
 * it, and every further line, on stdout or stderr (a loader's progress), waits this long again. Five seconds, not
 * less: a server that prints its banner before loading its libraries, on a busy machine, must not be failed for
 * it, and five seconds is still a sixth of the start timeout a program that never speaks MCP waited out before.
 */
export const NOT_MCP_QUIET_MS = 5000;

/** Lines quoted in the reason; the rest are counted. */
const QUOTED_LINES = 3;
/** Characters of one quoted line. */
const QUOTED_CHARS = 120;

const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;
const UNREADABLE = /[\u0000-\u0008\u000e-\u001f\u007f-\u009f\ufffd]/g;
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/** A line as it is quoted: colours and control characters out, spaces squeezed, cut; null for bytes that are not text. */
export function readableLine(line: string): string | null {
  const text = line.replace(ANSI, '').trim();
  const unreadable = text.match(UNREADABLE)?.length ?? 0;
  // A line that is a fifth or more bytes that are not text is a binary's output, not words to quote.
  if (unreadable > 0 && unreadable * 5 >= text.length) return null;
  const clean = text.replace(CONTROL, ' ').replace(/\ufffd/g, '').replace(/\s+/g, ' ').trim();
  return clean.length > QUOTED_CHARS ? `${clean.slice(0, QUOTED_CHARS)}…` : clean;
}

/** Whether a program printed something that is not a message (a line, or the start of one that is not JSON). */
export function printedNoise(lines: readonly string[], partial: string): boolean {
  return lines.length > 0 || (partial.trim() !== '' && !partial.trimStart().startsWith('{'));
}

/**
 * What it printed, in words: “first”, “second” and “third” (and 2 more lines), or "bytes that are not text".
 * `total` counts every line printed, the quoted ones and a partial last one included.
 */
export function printedWords(lines: readonly string[], total: number): string {
  const readable = lines.map(readableLine).filter((l): l is string => l !== null && l !== '');
  if (readable.length === 0) return 'bytes that are not text';
  const quoted = readable.slice(0, QUOTED_LINES).map((l) => `“${l}”`);
  const more = total - quoted.length;
  if (more > 0) return `${quoted.join(', ')} and ${more} more line${more === 1 ? '' : 's'}`;
  return quoted.length === 1 ? (quoted[0] as string) : `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1) as string}`;
}

/** The hint after the reason: a program that names an address it listens at is most likely a URL server. */
export function notMcpHint(lines: readonly string[]): string {
  const address = lines.some((l) => /\bhttps?:\/\/|\blistening\b/i.test(l));
  return address ? 'Check that the command starts an MCP server on stdio; one reached at an address is added by its URL instead.' : 'Check that the command starts an MCP server on stdio.';
}
