/**
 * What the page does before the app's code has loaded: it opens the link to main and asks what the first screen
 * needs (settings, models, aliases, conversations, connections). main.tsx is a small script that runs this and
 * then loads the app (React, the store, the components), so the socket's upgrade, the requests and main's answers
 * (the model list asks the server) overlap the download, parse and first render of the app's code instead of
 * following them (bench/start).
 *
 * Events that come before the app listens are held and handed to it, in order, once it does (`releaseEvents`),
 * as if it had listened first; a serve-mode problem reported meanwhile is kept for it likewise.
 */
import { eventMethodName, withRefusalsAsErrors, type FirebrandApi } from '../shared/bridge';
import { EVENT_CHANNELS, type ConversationSummary, type EventChannel, type ModelSummary, type KeptDraft, type Settings } from '../shared/ipc';
import type { ConnectionInfo } from '../shared/connections';
import type { Alias } from '../shared/models';
import { createServeBridge, type ServeProblem } from './serve-bridge';

interface FirstAnswers {
  settings: Promise<Settings>;
  models: Promise<ModelSummary[]>;
  aliases: Promise<Alias[]>;
  conversations: Promise<ConversationSummary[]>;
  connections: Promise<ConnectionInfo[]>;
  drafts: Promise<KeptDraft[]>;
}

let api: FirebrandApi | undefined;
let first: Partial<FirstAnswers> = {};
let release: () => void = () => {};
let problem: ServeProblem | null = null;
let showProblem: ((problem: ServeProblem | null) => void) | null = null;
let reconnected: (() => void) | null = null;
let desktop = false;

/** Builds the bridge (serve mode: the WebSocket shim; Electron: the preload's) and sends the first requests. */
export function boot(): void {
  // Electron's preload has already set window.firebrand; a browser in serve mode gets it from the shim, set on the
  // window as the preload's is, so both modes offer the same `window.firebrand`.
  const preloaded = (window as Partial<Window>).firebrand;
  desktop = preloaded !== undefined;
  // The preload's refusals cross as data (contextBridge keeps only an Error's message): FirebrandErrors again here.
  const given = preloaded ? withRefusalsAsErrors(preloaded) : (window.firebrand = createServeBridge(window.location, reportProblem, () => reconnected?.()));
  const held = holdEvents(given);
  api = held.api;
  release = held.release;
  first = {
    settings: api.settings.get({}),
    models: api.models.list({}),
    aliases: api.aliases.list({}),
    conversations: api.conversations.list({}),
    connections: api.connections.list({}),
    drafts: api.drafts.list({}),
  };
  // Whoever takes an answer handles its failure; until then it is not an unhandled rejection.
  for (const answer of Object.values(first)) answer.catch(() => {});
}

/** The bridge the app uses: boot's (events held until the app listens) once booted, else the window's. */
export function bootedApi(): FirebrandApi | undefined {
  return api;
}

/** Whether boot found the preload's bridge (the desktop app) rather than making the serve shim (a browser). */
export function bootedInDesktopApp(): boolean {
  return desktop;
}

/** The answer boot asked for, once: later reads ask main again. Undefined when not booted or already taken. */
export function takeFirst<K extends keyof FirstAnswers>(key: K): FirstAnswers[K] | undefined {
  const answer = first[key];
  delete first[key];
  return answer;
}

/** The app listens now: the events held so far are delivered to its listeners, and later ones as they come. */
export function releaseEvents(): void {
  release();
  release = () => {};
}

/** The app shows serve-mode problems from now on, starting with the one reported before it loaded, if any. */
export function onServeProblem(show: (problem: ServeProblem | null) => void): void {
  showProblem = show;
  if (problem) show(problem);
}

/** The app reads again what it shows each time the link to serve mode is back after a drop. */
export function onServeReconnected(run: () => void): void {
  reconnected = run;
}

function reportProblem(p: ServeProblem | null): void {
  problem = p;
  showProblem?.(p);
}

type Listener = (payload: unknown) => void;

/** The same API, with one subscription per event channel that holds events until `release`. */
function holdEvents(given: FirebrandApi): { api: FirebrandApi; release: () => void } {
  const domains = given as unknown as Record<string, Record<string, unknown>>;
  const out: Record<string, Record<string, unknown>> = {};
  for (const [name, methods] of Object.entries(domains)) out[name] = { ...methods };
  let held: [EventChannel, unknown][] | null = [];
  const listeners = new Map<EventChannel, Set<Listener>>();
  for (const channel of EVENT_CHANNELS) {
    const domain = channel.slice(0, channel.indexOf(':'));
    const method = eventMethodName(channel);
    const subscribe = domains[domain]?.[method] as ((listener: Listener) => () => void) | undefined;
    if (!subscribe) continue;
    const set = new Set<Listener>();
    listeners.set(channel, set);
    subscribe((payload) => {
      if (held) held.push([channel, payload]);
      else for (const l of set) l(payload);
    });
    (out[domain] ??= {})[method] = (listener: Listener) => {
      set.add(listener);
      return () => set.delete(listener);
    };
  }
  return {
    api: out as unknown as FirebrandApi,
    release: () => {
      const events = held ?? [];
      held = null;
      for (const [channel, payload] of events) for (const l of listeners.get(channel) ?? []) l(payload);
    },
  };
}
