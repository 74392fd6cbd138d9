/**
 * What a path typed or pasted into Models → Add can mean. A file manager or a terminal seldom hands over the bare
 * path: Windows' "Copy as path" wraps it in double quotes, a file dragged onto a Linux terminal comes in single
 * quotes, onto a macOS one with its spaces escaped (`My\ Models`), a browser's address bar gives a `file://` URL,
 * and a terminal user writes `~/Downloads/…`. Each was "There is no file at …" for a file that was there.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The paths `typed` may name, the path as typed first (a file whose name really has quotes or a backslash is still
 * found), then what it reads as once the wrapping is taken off. Pure, apart from the home folder's default.
 */
export function typedFilePathCandidates(typed: string, home: string = homedir(), platform: NodeJS.Platform = process.platform): string[] {
  const raw = typed.trim();
  const out = [raw];
  const quoted = /^(["'])(.*)\1$/s.exec(raw);
  let path = quoted ? (quoted[2] ?? '').trim() : raw;
  if (/^file:\/\//i.test(path)) {
    try {
      path = fileURLToPath(path);
    } catch {
      // Not a local file's URL (another host): left as typed, to be reported as no file there.
    }
  }
  // On Windows a backslash separates folders; elsewhere it escapes the next character (a shell's quoting).
  if (!quoted && platform !== 'win32') path = path.replace(/\\(.)/g, '$1');
  if (path === '~' || path.startsWith('~/') || (platform === 'win32' && path.startsWith('~\\'))) path = join(home, path.slice(1));
  if (path !== '' && !out.includes(path)) out.push(path);
  return out;
}
