import { Fragment } from 'react';

/**
 * A message from main with the paths in it said short: a file by its name, with its whole path on hover; a folder
 * whole, with a break after each separator. The whole paths ("There is no file at /tmp/…/outside/missing.gguf.",
 * "is free in /home/…/models.") broke mid-word at 390 px, or ran off the screen.
 */
export function PathWords({ text }: { text: string }) {
  return (
    <>
      {splitPaths(text).map((part, i) =>
        typeof part === 'string' ? (
          <Fragment key={i}>{part}</Fragment>
        ) : part.name !== null ? (
          <span key={i} className="lib-msg-path" title={part.path} data-path={part.path}>{part.name}</span>
        ) : (
          <span key={i} className="lib-msg-path" data-path={part.path}>
            {part.path.split(/(?<=[/\\])/).map((piece, j) => (
              <Fragment key={j}>{piece}<wbr /></Fragment>
            ))}
          </span>
        ),
      )}
    </>
  );
}

/** A path found in a message: `name` is its file name where it names a file (has an extension), else null. */
export interface PathPart {
  path: string;
  name: string | null;
}

/**
 * An absolute path: POSIX (`/…`, not the `//` of a URL nor the `/` inside `hf:owner/repo`) or Windows (`C:\…`),
 * up to a space or a quote; a sentence's last stop or comma is not part of it.
 */
const PATH = /(?<![\w:/.\\-])(\/[^\s"“”]+|[A-Za-z]:\\[^\s"“”]+)/g;

export function splitPaths(text: string): (string | PathPart)[] {
  const out: (string | PathPart)[] = [];
  let at = 0;
  for (const m of text.matchAll(PATH)) {
    const path = m[0].replace(/[.,;:)]+$/, '');
    if (path.length < 2) continue;
    const start = m.index;
    if (start > at) out.push(text.slice(at, start));
    const last = path.split(/[/\\]/).at(-1) ?? '';
    out.push({ path, name: /\.[A-Za-z0-9]+$/.test(last) ? last : null });
    at = start + path.length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}
