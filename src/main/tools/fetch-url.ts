import { isIP } from 'node:net';
import { request } from 'undici';
import type { Tool } from './types';
import { argString, toolError } from './types';
import { htmlToText } from './html-text';

export const FETCH_MAX_BYTES = 1024 * 1024;
export const FETCH_TIMEOUT_MS = 15_000;
/** Characters of page text returned to the model: a page is context, not an archive. */
export const FETCH_MAX_CHARS = 40_000;
const MAX_REDIRECTS = 5;

/**
 * Fetches an http(s) page as readable text. Safety decisions (DESIGN.md §8; issue 5):
 * - Only http: and https:, checked on the first URL and on every redirect (redirects are followed by hand, so a
 *   redirect to file:, data: or any other scheme is refused, never handed to a library).
 * - LAN and loopback addresses ARE allowed: Firebrand is local-first and a user may ask about a page on their
 *   own network. Each conversation's first fetch needs the user's approval (the `tool-approval` card), which
 *   shows the URL. Link-local addresses (169.254/16, fe80::/10: cloud metadata endpoints) are refused, since
 *   serve mode may run on a cloud GPU box where those hold credentials.
 * - GET only, no cookies, no credentials, no auth headers: a fetch can read but not act.
 * - 1 MiB and 15 s at most; the text is cut at 40k characters with a note.
 */
export const fetchUrlTool: Tool = {
  schema: {
    name: 'fetch_url',
    description: 'Fetches a web page (http or https) and returns its readable text. The user must approve fetching.',
    parameters: {
      type: 'object',
      properties: { url: { type: 'string', description: 'An http:// or https:// URL' } },
      required: ['url'],
      additionalProperties: false,
    },
  },
  needsApproval: true,
  describeCall: (args) => argString(args, 'url') ?? '(no url)',
  async run(args, ctx) {
    const first = argString(args, 'url') ?? '';
    const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(FETCH_TIMEOUT_MS)]);
    let url = first;
    try {
      for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
        const refused = refuseUrl(url);
        if (refused) return toolError(refused);
        const res = await request(url, { method: 'GET', signal, headers: { accept: 'text/html, text/plain;q=0.9, */*;q=0.5' } });
        const location = res.headers['location'];
        if (res.statusCode >= 300 && res.statusCode < 400 && typeof location === 'string') {
          await res.body.dump();
          url = new URL(location, url).toString();
          continue;
        }
        const body = await readCapped(res.body, FETCH_MAX_BYTES);
        if (res.statusCode >= 400) return toolError(`${url} answered HTTP ${res.statusCode}.`);
        const type = String(res.headers['content-type'] ?? '');
        const raw = new TextDecoder('utf-8', { fatal: false }).decode(body.bytes);
        let text = /html/i.test(type) || /^\s*</.test(raw) ? htmlToText(raw) : raw;
        const notes: string[] = [];
        if (body.capped) notes.push(`only the first ${FETCH_MAX_BYTES} bytes were read`);
        if (text.length > FETCH_MAX_CHARS) {
          text = text.slice(0, FETCH_MAX_CHARS);
          notes.push(`cut at ${FETCH_MAX_CHARS} characters`);
        }
        return { content: `[${url}${notes.length ? `; ${notes.join('; ')}` : ''}]\n${text}`, isError: false };
      }
      return toolError(`${first} redirected more than ${MAX_REDIRECTS} times.`);
    } catch (err) {
      if (ctx.signal.aborted) return toolError('The fetch was stopped.');
      if (signal.aborted) return toolError(`${url} did not answer within ${FETCH_TIMEOUT_MS / 1000} s.`);
      return toolError(`Fetching ${url} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  },
};

/** Why a URL may not be fetched, or undefined when it may. */
export function refuseUrl(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `${JSON.stringify(text)} is not a URL; send an absolute http:// or https:// URL.`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `Only http and https URLs can be fetched, not ${url.protocol}`;
  if (url.username || url.password) return 'URLs with credentials are not fetched.';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) === 4 && host.startsWith('169.254.')) return 'Link-local addresses (169.254.x.x) are not fetched.';
  if (isIP(host) === 6 && /^fe[89ab]/i.test(host)) return 'Link-local addresses (fe80::/10) are not fetched.';
  return undefined;
}

async function readCapped(body: AsyncIterable<Uint8Array> & { destroy?: () => void }, max: number) {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const take = Math.min(chunk.byteLength, max - size);
    chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, take));
    size += take;
    if (size >= max) {
      body.destroy?.();
      return { bytes: Buffer.concat(chunks), capped: true };
    }
  }
  return { bytes: Buffer.concat(chunks), capped: false };
}
