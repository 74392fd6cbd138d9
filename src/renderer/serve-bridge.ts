/**
 * In serve mode there is no preload: this shim builds the same `window.firebrand` from the contract over a
 * WebSocket to the serving process, reconnecting when the socket drops.
 *
 * The token comes from the page's own URL (`?token=…`) and goes only into the socket's URL: no cookie, which
 * every other port of the same host would receive too. Without a token, or with one the server no longer
 * accepts (serve mode restarted), the app says how to get in instead of reconnecting forever (issue 15).
 */
import { buildBridge, type FirebrandApi } from '../shared/bridge';
import type { EventChannel, InvokeChannel, IpcResult } from '../shared/ipc';

interface Pending {
  channel: InvokeChannel;
  resolve: (result: IpcResult<unknown>) => void;
}

/** What the app tells the user about its link to serve mode; `null` when all is well. */
export type ServeProblem = { kind: 'no-token' | 'bad-token' | 'unreachable'; message: string };

export const SERVE_MESSAGES = {
  'no-token': 'This address has no token. Open the address Firebrand printed when serve mode started (it ends with ?token=…).',
  'bad-token': 'This page’s token is no longer accepted (serve mode was restarted). Open the address it printed this time.',
  unreachable: 'Lost the connection to Firebrand. Reconnecting…',
} as const;

/** What a call was doing, as the start of a sentence, for the calls a user starts and may have to repeat. */
const CALL_PHRASES: Partial<Record<InvokeChannel, string>> = {
  'chat:send': 'Sending the message',
  'chat:regenerate': 'Regenerating the answer',
  'chat:edit-and-resend': 'Sending the edited message',
  'chat:stop': 'Stopping the answer',
  'chat:approve-tool': 'Answering the tool request',
  'attachments:add': 'Adding the attachment',
  'conversations:open': 'Opening the conversation',
  'conversations:import': 'The import',
  'conversations:import-begin': 'The import',
  'conversations:import-chunk': 'The import',
  'conversations:import-finish': 'The import',
  'conversations:export': 'The export',
  'conversations:export-all': 'The export',
  'conversations:rename': 'Renaming the conversation',
  'conversations:delete': 'Deleting the conversation',
  'conversations:search': 'The search',
  'conversations:update-settings': 'Saving the chat settings',
  'settings:update': 'Saving the settings',
  // Settings → Connections says its failures beside the form or row that asked: "That request" named none of them.
  'connections:save': 'Saving the connection',
  'connections:delete': 'Removing the connection',
  'connections:test': 'Testing the connection',
};

/**
 * What a call cut off by a dropped link says. Not the link's own "Reconnecting…": that is a lasting state, shown
 * (and cleared on reconnecting) by the serve-problem banner, while this call's failure is an event the user may
 * have to act on once the link is back (the audit's files #3: the copied text stayed up as a notice for good).
 */
function droppedCallMessage(channel: InvokeChannel): string {
  return `${CALL_PHRASES[channel] ?? 'That request'} was not finished: the connection to Firebrand dropped; try again.`;
}

/**
 * What a call made while the link was down says: it never left the page, and now never will (resilience audit
 * R2: it was told "not finished; try again", yet went out once the link was back, so trying again sent it twice).
 */
function unsentCallMessage(channel: InvokeChannel): string {
  return `${CALL_PHRASES[channel] ?? 'That request'} did not start: the connection to Firebrand is down. Nothing was sent; try again once it is back.`;
}

/** What a call made once the link was given up on says (no token, or one refused): the page's own words for it. */
function refusedCallMessage(channel: InvokeChannel, problem: ServeProblem): string {
  const phrase = CALL_PHRASES[channel];
  // Calls the page makes on its own are not the user's to hear of again: the banner says it once.
  if (!phrase) return problem.message;
  // The draft is kept on this page, and main takes it once the address printed this time is opened (drafts.ts).
  const kept = channel === 'chat:send' ? ' Your message is kept.' : '';
  return `${phrase} did not start: ${problem.message.charAt(0).toLowerCase()}${problem.message.slice(1)}${kept}`;
}

let retryNow: () => void = () => {};

/** The serve-problem banner's Retry: try the link again at once instead of waiting for the next attempt. */
export function reconnectServe(): void {
  retryNow();
}

/**
 * `onReconnected` runs each time the link is back after a drop: events sent meanwhile (an answer's end, a chat
 * renamed in another tab) never reached this page, so the app reads again what it shows (resilience audit R1).
 */
export function createServeBridge(location: Location, onProblem: (problem: ServeProblem | null) => void = () => {}, onReconnected: () => void = () => {}): FirebrandApi {
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const wsUrl = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ipc?token=${encodeURIComponent(token)}`;
  const listeners = new Map<EventChannel, Set<(payload: unknown) => void>>();
  const pending = new Map<number, Pending>();
  /** Calls made while no socket was open, by id, in order: sent when one opens, unless they were failed first. */
  const queue = new Map<number, string>();
  let linked = false;
  let nextId = 1;
  let socket: WebSocket | undefined;
  let stopped: ServeProblem | undefined;

  const problem = (kind: ServeProblem['kind']): ServeProblem => ({ kind, message: SERVE_MESSAGES[kind] });
  const failPending = (p: ServeProblem) => {
    for (const [id, entry] of pending) {
      // A call told it failed must not go out later: its frame leaves the queue with it.
      const sent = !queue.delete(id);
      const message = p.kind !== 'unreachable' ? p.message : sent ? droppedCallMessage(entry.channel) : unsentCallMessage(entry.channel);
      entry.resolve({ ok: false, error: { code: p.kind === 'unreachable' ? 'server-unreachable' : 'forbidden', message } });
      pending.delete(id);
    }
  };
  const stop = (p: ServeProblem) => {
    stopped = p;
    failPending(p);
    queue.clear();
    onProblem(p);
  };

  /** A socket that closed before it opened: the token was refused (stop) or the server is away (retry). */
  const diagnose = async (): Promise<void> => {
    try {
      const res = await fetch(location.href, { method: 'HEAD', cache: 'no-store' });
      if (res.status === 401 || res.status === 403) return stop(problem('bad-token'));
    } catch {
      // Unreachable: fall through to retry.
    }
    onProblem(problem('unreachable'));
    later();
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const later = () => {
    clearTimeout(timer);
    timer = setTimeout(connect, 1000);
  };
  retryNow = () => {
    if (stopped || socket?.readyState === WebSocket.OPEN || socket?.readyState === WebSocket.CONNECTING) return;
    clearTimeout(timer);
    connect();
  };

  const connect = () => {
    let opened = false;
    const ws = new WebSocket(wsUrl);
    socket = ws;
    ws.addEventListener('open', () => {
      opened = true;
      onProblem(null);
      for (const msg of queue.values()) ws.send(msg);
      queue.clear();
      if (linked) onReconnected();
      linked = true;
    });
    ws.addEventListener('message', (ev: MessageEvent<string>) => {
      let msg: { t?: unknown; id?: unknown; result?: IpcResult<unknown>; channel?: EventChannel; payload?: unknown };
      try {
        msg = JSON.parse(ev.data) as typeof msg;
      } catch {
        return;
      }
      if (msg.t === 'result' && typeof msg.id === 'number' && msg.result) {
        pending.get(msg.id)?.resolve(msg.result);
        pending.delete(msg.id);
      } else if (msg.t === 'event' && msg.channel) {
        for (const l of listeners.get(msg.channel) ?? []) l(msg.payload);
      }
    });
    ws.addEventListener('close', () => {
      failPending(problem('unreachable'));
      if (opened) {
        onProblem(problem('unreachable'));
        later();
      } else void diagnose();
    });
  };
  if (token === '') stop(problem('no-token'));
  else connect();

  return buildBridge({
    invoke: (channel, payload) =>
      new Promise((resolve) => {
        // An answer of its own for what the user started (issue: Send in a page whose token was refused did nothing
        // that the user could see: its failure was the banner's words, which it already showed).
        if (stopped) return resolve({ ok: false, error: { code: 'forbidden', message: refusedCallMessage(channel, stopped) } });
        const id = nextId++;
        pending.set(id, { channel, resolve });
        const msg = JSON.stringify({ t: 'invoke', id, channel, payload });
        if (socket?.readyState === WebSocket.OPEN) socket.send(msg);
        else queue.set(id, msg);
      }),
    subscribe: (channel, listener) => {
      const set = listeners.get(channel) ?? new Set();
      listeners.set(channel, set);
      set.add(listener);
      return () => set.delete(listener);
    },
  });
}
