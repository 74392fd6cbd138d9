/**
 * Where a download comes from: an http(s) URL, or `hf:owner/repo/path/file.gguf` (Hugging Face, branch `main`,
 * or `hf:owner/repo/file.gguf#branch`), and what the source says about the file before any byte is taken: its
 * size and, where it gives one, its sha256 (Hugging Face serves LFS files with `X-Linked-Etag: "<sha256>"` and
 * `X-Linked-Size`; other servers may send `Repr-Digest`/`Digest: sha-256=<base64>`).
 */
import type { DownloadProgress } from '../../../shared/library';
import { Agent, interceptors, request, type Dispatcher } from '../../leg/undici';
import { UserFacingError } from '../../errors';
import { modelFileName } from '../models-folder';

export interface DownloadSource {
  /** What the user typed. */
  source: string;
  url: string;
  /** The file name in the models folder. */
  file: string;
}

export interface RemoteFile {
  size: number | null;
  sha256: string | null;
  etag: string | null;
  /** The server takes `Range` requests (resume possible). */
  ranges: boolean;
}

/** Follows redirects (Hugging Face sends files from a CDN): both the HEAD here and the transfer use it. */
export const downloadDispatcher: Dispatcher = new Agent().compose(interceptors.redirect({ maxRedirections: 5 }));

/** Hugging Face's address; FIREBRAND_HF_ENDPOINT points `hf:` elsewhere (a mirror). */
export function hfEndpoint(): string {
  return (process.env['FIREBRAND_HF_ENDPOINT'] ?? 'https://huggingface.co').replace(/\/+$/, '');
}

export function parseSource(input: string): DownloadSource {
  const source = input.trim();
  if (source.startsWith('hf:')) {
    const [path = '', branch = 'main'] = source.slice(3).split('#');
    const parts = path.split('/').filter((p) => p !== '');
    if (parts.length < 3 || !parts.at(-1)?.toLowerCase().endsWith('.gguf')) {
      throw new UserFacingError('invalid-payload', 'Write a Hugging Face file as hf:owner/repo/file.gguf (the file name, not just the repository).');
    }
    const [owner, repo, ...rest] = parts;
    const url = `${hfEndpoint()}/${owner}/${repo}/resolve/${encodeURIComponent(branch)}/${rest.map(encodeURIComponent).join('/')}`;
    return { source, url, file: modelFileName(rest.at(-1) ?? '') };
  }
  let url: URL;
  try {
    url = new URL(source);
  } catch {
    throw new UserFacingError('invalid-payload', `“${source.slice(0, 200)}” is not an address. Use https://… or hf:owner/repo/file.gguf.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UserFacingError('invalid-payload', 'A download address starts with http:// or https:// (or hf:).');
  const name = decodeURIComponent(url.pathname.split('/').pop() ?? '');
  if (!name.toLowerCase().endsWith('.gguf')) throw new UserFacingError('invalid-payload', `The address does not name a .gguf file (${name || 'no file name'}).`);
  return { source, url: url.toString(), file: modelFileName(name) };
}

/**
 * The source refused the file for good (no such file, gated): asking again gets the same answer, so the download is
 * not offered to resume (models audit #8: Resume was offered after a 404).
 */
export class SourceRefusedError extends UserFacingError {}

/** Asks the source about the file (HEAD, redirects followed). Headers only: nothing is downloaded. */
export async function describeRemote(url: string, signal: AbortSignal): Promise<RemoteFile> {
  const res = await request(url, { method: 'HEAD', signal, dispatcher: downloadDispatcher, headersTimeout: 30_000 });
  await res.body.dump();
  if (res.statusCode === 404) throw new SourceRefusedError('not-found', `There is no file at ${url} (HTTP 404). Check the address.`);
  if (res.statusCode === 401 || res.statusCode === 403) throw new SourceRefusedError('server-error', `${url} refused the download (HTTP ${res.statusCode}); the file may be gated or private.`);
  // A server that is busy (429), timed out (408) or failing (5xx) may answer later: Resume tries again.
  if (res.statusCode >= 400 && res.statusCode < 500 && res.statusCode !== 408 && res.statusCode !== 429) throw new SourceRefusedError('server-error', `${url} answered HTTP ${res.statusCode}.`);
  if (res.statusCode >= 400) throw new UserFacingError('server-error', `${url} answered HTTP ${res.statusCode}.`);
  const h = (name: string): string | null => {
    const v = res.headers[name];
    return typeof v === 'string' ? v : Array.isArray(v) ? (v[0] ?? null) : null;
  };
  const size = Number(h('x-linked-size') ?? h('content-length'));
  return {
    size: Number.isFinite(size) && size > 0 ? size : null,
    sha256: sha256From(h('x-linked-etag'), h('repr-digest') ?? h('digest')),
    etag: h('etag'),
    ranges: (h('accept-ranges') ?? '').includes('bytes'),
  };
}

function sha256From(linkedEtag: string | null, digest: string | null): string | null {
  const etag = linkedEtag?.replace(/^W\//, '').replace(/"/g, '').trim().toLowerCase();
  if (etag && /^[0-9a-f]{64}$/.test(etag)) return etag;
  const m = digest ? /sha-256=:?([A-Za-z0-9+/=]+):?/i.exec(digest) : null;
  if (m?.[1]) {
    const hex = Buffer.from(m[1], 'base64').toString('hex');
    if (hex.length === 64) return hex;
  }
  return null;
}

/** Whether `source` (as a download's row keeps it: a URL or hf:…) is the address `url`. */
export function fromUrl(source: string, url: string): boolean {
  try {
    return parseSource(source).url === url;
  } catch {
    return false;
  }
}

/** Why a second address for `file` is refused, with what to do about the download already there (its buttons). */
export function elsewhere(file: string, state: DownloadProgress['state']): string {
  return state === 'running' || state === 'verifying'
    ? `A download of ${file} from another address is running: Cancel it first to download ${file} from this one.`
    : `A download of ${file} from another address is already here: Resume it, or Cancel it to download ${file} from this one.`;
}
