import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

/**
 * The file of the built renderer a decoded URL path names, and its name inside that folder ('/'-separated, so
 * `/assets/../index.html` is `index.html`: what is served is decided by the file, not by how the path spells it).
 * Undefined for a path that leaves the folder.
 */
export function resolveStatic(root: string, path: string): { file: string; name: string } | undefined {
  const relative = path === '/' ? '/index.html' : path;
  const file = normalize(join(root, relative));
  const prefix = root.endsWith(sep) ? root : root + sep;
  if (!file.startsWith(prefix)) return undefined;
  return { file, name: file.slice(prefix.length).split(sep).join('/') };
}

/** Reads a file `resolveStatic` named; undefined when there is none. */
export async function readStatic(file: string): Promise<{ body: Buffer; type: string } | undefined> {
  try {
    return { body: await readFile(file), type: TYPES[extname(file)] ?? 'application/octet-stream' };
  } catch {
    return undefined;
  }
}
