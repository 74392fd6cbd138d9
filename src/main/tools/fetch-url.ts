import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, request } from '../leg/undici';
import { runInWorker, WorkerJobError } from '../workers/run-in-worker';
import { classifyAddress, refuseHostName } from './address-policy';
import type { Tool, ToolContext, ToolOutcome } from './types';
import { argString, toolError } from './types';

export const FETCH_MAX_BYTES = 1024 * 1024;
export const FETCH_TIMEOUT_MS = 15_000;
/** Characters of page text returned to the model: a page is context, not an archive. */
export const FETCH_MAX_CHARS = 40_000;
const MAX_REDIRECTS = 5;
/** Backstop for turning one page into text off the event loop (linear time: this is never reached in practice). */
const HTML_TEXT_TIMEOUT_MS = 20_000;

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export interface FetchUrlOptions {
  /** DNS: every address a name resolves to (tests answer from a table; no test queries the real DNS). */
  resolve?: (hostname: string) => Promise<ResolvedAddress[]>;
  /**
   * Whether an address may be connected to, given ipaddr's verdict. Default: public unicast only. Tests widen it
   * to 127.0.0.1 so a local test server can stand in for a public one.
   */
  allowAddress?: (verdict: ReturnType<typeof classifyAddress>) => boolean;
}

/**
 * Fetches an http(s) page as readable text. Safety decisions (DESIGN.md §8; issues 5 and 15):
 * - Only http: and https:, checked on the first URL and on every redirect (redirects are followed by hand, so a
 *   redirect to file:, data: or any other scheme is refused, never handed to a library).
 * - Public addresses only (src/main/tools/address-policy.ts). A name is resolved ONCE per hop, every address it
 *   resolves to is checked, and the socket connects to the checked address (undici's `lookup` is pinned to it):
 *   a DNS answer that changes between the check and the connect cannot move the fetch.
 * - A redirect gets the same checks as the first URL; one to another host is said in the result and on the card.
 * - GET only, no cookies, no credentials, no auth headers: a fetch can read but not act.
 * - 1 MiB and 15 s at most; the HTML is turned into text in a worker thread (a hostile page cannot freeze Stop);
 *   the text is cut at 40k characters with a note, and fitted again to the window that is left by the engine.
 */
export function createFetchUrlTool(options: FetchUrlOptions = {}): Tool {
  const resolve = options.resolve ?? systemResolve;
  const allowAddress = options.allowAddress ?? ((v) => v.refusal === undefined);
  return {
    schema: {
      name: 'fetch_url',
      description: 'Fetches a public web page (http or https) and returns its readable text. The user must approve fetching.',
      parameters: {
        type: 'object',
        properties: { url: { type: 'string', description: 'An http:// or https:// URL' } },
        required: ['url'],
        additionalProperties: false,
      },
    },
    needsApproval: true,
    describeCall: (args) => argString(args, 'url') ?? '(no url)',
    run: (args, ctx) => fetchPage(argString(args, 'url') ?? '', ctx, resolve, allowAddress),
  };
}

export const fetchUrlTool: Tool = createFetchUrlTool();

async function fetchPage(
  first: string,
  ctx: ToolContext,
  resolve: (hostname: string) => Promise<ResolvedAddress[]>,
  allowAddress: (verdict: ReturnType<typeof classifyAddress>) => boolean,
): Promise<ToolOutcome> {
  const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(FETCH_TIMEOUT_MS)]);
  let url = first;
  const hosts: string[] = [];
  try {
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const refused = urlFormProblem(url);
      if (refused) return toolError(hop === 0 ? refused : `${first} redirected to ${url}, which is refused: ${refused}`);
      const target = new URL(url);
      const pinned = await pinAddress(target.hostname, resolve, allowAddress);
      if ('refusal' in pinned) return toolError(hop === 0 ? pinned.refusal : `${first} redirected to ${url}, which is refused: ${pinned.refusal}`);
      if (hosts.at(-1) !== target.host) hosts.push(target.host);
      const dispatcher = new Agent({ connect: { lookup: pinnedLookup(pinned) } });
      try {
        const res = await request(url, { method: 'GET', signal, dispatcher, headers: { accept: 'text/html, text/plain;q=0.9, */*;q=0.5' } });
        const location = res.headers['location'];
        if (res.statusCode >= 300 && res.statusCode < 400 && typeof location === 'string') {
          await res.body.dump();
          url = new URL(location, url).toString();
          continue;
        }
        const body = await readCapped(res.body, FETCH_MAX_BYTES);
        if (res.statusCode >= 400) return toolError(`${url} answered HTTP ${res.statusCode}.`);
        return await pageText(url, String(res.headers['content-type'] ?? ''), body, hosts, ctx.signal);
      } finally {
        void dispatcher.close().catch(() => undefined);
      }
    }
    return toolError(`${first} redirected more than ${MAX_REDIRECTS} times.`);
  } catch (err) {
    if (ctx.signal.aborted) return toolError('The fetch was stopped.');
    if (signal.aborted) return toolError(`${url} did not answer within ${FETCH_TIMEOUT_MS / 1000} s.`);
    if (err instanceof WorkerJobError) return toolError(`The page at ${url} could not be read as text: ${err.message}`);
    return toolError(`Fetching ${url} failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}

async function pageText(url: string, type: string, body: { bytes: Buffer; capped: boolean }, hosts: string[], stop: AbortSignal): Promise<ToolOutcome> {
  const raw = new TextDecoder('utf-8', { fatal: false }).decode(body.bytes);
  let text = /html/i.test(type) || /^\s*</.test(raw) ? await runInWorker('html-to-text', raw, { signal: stop, timeoutMs: HTML_TEXT_TIMEOUT_MS }) : raw;
  const notes: string[] = [];
  if (hosts.length > 1) notes.push(`redirected from ${hosts.slice(0, -1).join(' → ')} to another host, ${hosts.at(-1) ?? ''}`);
  if (body.capped) notes.push(`only the first ${FETCH_MAX_BYTES} bytes were read`);
  if (text.length > FETCH_MAX_CHARS) {
    text = text.slice(0, FETCH_MAX_CHARS);
    notes.push(`cut at ${FETCH_MAX_CHARS} characters`);
  }
  const outcome: ToolOutcome = { content: `[${url}${notes.length ? `; ${notes.join('; ')}` : ''}]\n${text}`, isError: false };
  return hosts.length > 1 ? { ...outcome, note: `Redirected to another host: ${hosts.join(' → ')}` } : outcome;
}

/** Resolves a host once and checks every address; the first is the one the socket will use. */
async function pinAddress(
  hostname: string,
  resolve: (hostname: string) => Promise<ResolvedAddress[]>,
  allowAddress: (verdict: ReturnType<typeof classifyAddress>) => boolean,
): Promise<ResolvedAddress | { refusal: string }> {
  const bare = hostname.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 0) {
    const named = refuseHostName(bare);
    if (named) return { refusal: named };
  }
  let addresses: ResolvedAddress[];
  try {
    addresses = family === 0 ? await resolve(bare) : [{ address: bare, family: family as 4 | 6 }];
  } catch (err) {
    return { refusal: `${bare} could not be resolved (${(err as NodeJS.ErrnoException).code ?? 'DNS error'}).` };
  }
  if (addresses.length === 0) return { refusal: `${bare} resolved to no address.` };
  // One bad address refuses the name: a name that answers both a public and a private address is a rebinding trick.
  for (const a of addresses) {
    const verdict = classifyAddress(a.address);
    if (!allowAddress(verdict)) {
      const why = verdict.refusal ?? `${verdict.address} may not be fetched.`;
      return { refusal: family === 0 ? `${bare} resolves to ${why}` : why };
    }
  }
  return addresses[0] as ResolvedAddress;
}

/** A `lookup` for the socket that answers with the checked address and never asks DNS again. */
function pinnedLookup(pinned: ResolvedAddress): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
    else callback(null, pinned.address, pinned.family);
  }) as LookupFunction;
}

async function systemResolve(hostname: string): Promise<ResolvedAddress[]> {
  const answers = await dnsLookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
}

/** Why a URL may not be fetched whatever it resolves to (malformed, not http(s), credentials), or undefined. */
function urlFormProblem(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `${JSON.stringify(text)} is not a URL; send an absolute http:// or https:// URL.`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `Only http and https URLs can be fetched, not ${url.protocol}`;
  if (url.username || url.password) return 'URLs with credentials are not fetched.';
  return undefined;
}

/** Why a URL is refused before any lookup (its form, an address literal, a metadata name), or undefined. */
export function refuseUrl(text: string): string | undefined {
  const form = urlFormProblem(text);
  if (form) return form;
  const host = new URL(text).hostname.replace(/^\[|\]$/g, '');
  return isIP(host) !== 0 ? classifyAddress(host).refusal : refuseHostName(host);
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
