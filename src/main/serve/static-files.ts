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

/** Reads a file of the built renderer by its decoded URL path; refuses any path that leaves its folder. */
export async function readStatic(root: string, path: string): Promise<{ body: Buffer; type: string } | undefined> {
  const relative = path === '/' ? '/index.html' : path;
  const file = normalize(join(root, relative));
  if (file !== root && !file.startsWith(root.endsWith(sep) ? root : root + sep)) return undefined;
  try {
    return { body: await readFile(file), type: TYPES[extname(file)] ?? 'application/octet-stream' };
  } catch {
    return undefined;
  }
}
