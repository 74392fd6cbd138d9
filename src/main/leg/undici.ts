/**
 * The parts of undici Firebrand uses (request, Agent, errors, the redirect interceptor), loaded from undici's own
 * files instead of its index. The index also loads fetch, WebSocket, EventSource, the cache and mock agents, and
 * one of them reads `globalThis.Headers`, which makes Node load its own copy of undici as well: importing the
 * index took ~136 ms of CPU in a fresh process on the busy 2-core machine, these parts ~64 ms (median of 9), and
 * serve mode loads them at every start (bench/start). undici is pinned by package-lock.json; the leg's and the
 * tools' tests go through this module.
 */
import type * as Undici from 'undici';
import AgentClass from 'undici/lib/dispatcher/agent.js';
import requestOnDispatcher from 'undici/lib/api/api-request.js';
import errorClasses from 'undici/lib/core/errors.js';
import util from 'undici/lib/core/util.js';
import globals from 'undici/lib/global.js';
import redirect from 'undici/lib/interceptor/redirect.js';
import { keepWasmBaseline } from './wasm-tier-up';

// Before any request: the first one compiles undici's WebAssembly parser (wasm-tier-up.ts).
keepWasmBaseline();

export type Dispatcher = Undici.Dispatcher;
export const Agent = AgentClass as typeof Undici.Agent;
export const errors = errorClasses as typeof Undici.errors;
export const interceptors = { redirect: redirect as typeof Undici.interceptors.redirect };

const { getGlobalDispatcher } = globals as { getGlobalDispatcher: () => Dispatcher };
/** undici's URL check (http: or https:, a valid port...), which throws its InvalidArgumentError. */
const { parseURL } = util as { parseURL: (url: string | URL) => URL };
type Sent = Undici.Dispatcher.RequestOptions<null>;
type Answer = Undici.Dispatcher.ResponseData<null>;
/** What undici's `request` takes besides the URL (its own type, for the forms Firebrand uses). */
type RequestOptions = NonNullable<Parameters<typeof Undici.request<null>>[1]>;

/**
 * undici's `request(url, options)` as its index builds it (`makeDispatcher`) for a URL: checked by undici, its
 * origin and path, the method (GET, or PUT with a body), sent through `options.dispatcher` or the global one.
 */
export function request(url: string | URL, options: RequestOptions = {}): Promise<Answer> {
  const parsed = parseURL(url);
  const { dispatcher = getGlobalDispatcher() } = options;
  const send = requestOnDispatcher as (this: Dispatcher, options: Sent) => Promise<Answer>;
  return send.call(dispatcher, {
    ...options,
    origin: parsed.origin,
    path: parsed.search ? `${parsed.pathname}${parsed.search}` : parsed.pathname,
    method: options.method || (options.body ? 'PUT' : 'GET'),
  } as Sent);
}
