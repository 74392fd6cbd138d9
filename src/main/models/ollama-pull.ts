/**
 * `/api/pull` with live progress. Ollama streams NDJSON: `{status}` steps and, per layer, `{status, digest,
 * total, completed}`. Bytes are summed over layers; speed is measured over the last few seconds so one slow
 * chunk does not swing the ETA. Pulling a model again after a stop resumes: Ollama keeps the partial blobs and
 * continues server-side (shared/resume-words.ts says what it keeps), so a resumed pull starts with `completed`
 * already high (not counted as speed).
 */
import type { PullProgress } from '../../shared/models';
import { joinUrl } from '../connections/server-url';
import { frameEvents } from '../leg/framing';
import { fromConnection, legFailure } from '../engine/from-connection';
import { LegError, sendRequest } from '../leg/http';
import { pullAgainWords } from '../../shared/resume-words';
import { failedOn, serverError } from './ollama-http';

export interface PullOptions {
  baseUrl: string;
  /** The saved connection's name (shared connectionName), which a failure says; absent, the address alone. */
  name?: string;
  model: string;
  pullId: string;
  signal: AbortSignal;
  onProgress: (p: PullProgress) => void;
  now?: () => number;
  /** Shortest time between two progress reports (the last one is always sent). */
  throttleMs?: number;
}

const SPEED_WINDOW_MS = 5_000;

/**
 * What a refused pull says. A name the registry does not have (a typo, a tag that does not exist) came back as
 * Ollama's "pull model manifest: file does not exist", which does not tell the user that the name is what is
 * wrong: it is said in plain words, with where to look, and Ollama's own words after. Other refusals are said as
 * Ollama said them.
 */
export function pullRefused(model: string, said: string | null, status: number | null, name?: string): string {
  const failed = failedOn(`Pulling ${model}`, name);
  if (said !== null && /manifest: file does not exist|manifest unknown/i.test(said)) {
    // A name with a host (hf.co/…, registry.example.com/…) is not from the Ollama library.
    const where = /^[^/]+\.[^/]+\//.test(model)
      ? 'its registry has no model by that name and tag. Check its spelling.'
      : 'the Ollama library has no model by that name and tag. Check its spelling at ollama.com/library, such as llama3.2:1b.';
    return `${failed}: ${where} (${name ?? 'Ollama'} said: ${said}.)`;
  }
  return `${failed}${status !== null ? ` (${status})` : ''}${said ? `: ${said}` : '.'}`;
}

/**
 * A pull's step in plain words. Ollama names each layer it downloads by its digest ("pulling 74701a8c35f6"), which
 * says nothing to a user: it is "Downloading part 2", the parts counted as Ollama announces them (its stream does not
 * say how many are to come); the bytes and percent beside it say how far. Its other steps are said as sentences;
 * one not known here keeps Ollama's words, capitalised.
 */
export function plainPullStatus(status: string, part: number | null): string {
  if (part !== null && /^pulling [0-9a-f]{6,}$/i.test(status)) return `Downloading part ${part}`;
  const steps: Record<string, string> = {
    starting: 'Starting',
    'pulling manifest': 'Reading the model’s list of parts',
    'verifying sha256 digest': 'Verifying the download',
    'writing manifest': 'Writing the manifest',
    'removing any unused layers': 'Removing parts no longer used',
    'removing unused layers': 'Removing parts no longer used',
  };
  return steps[status] ?? (status === 'success' ? status : status.charAt(0).toUpperCase() + status.slice(1));
}

/** Turns pull lines into progress; exported for tests that feed lines without a server. */
export class PullTracker {
  private readonly layers = new Map<string, { total: number; completed: number }>();
  private readonly samples: { at: number; bytes: number }[] = [];
  /** Ollama's own words for the step; `status` says them plainly. */
  private said = 'starting';
  private part: number | null = null;
  private shownPercent = 0;

  constructor(private readonly now: () => number) {}

  apply(line: Record<string, unknown>): void {
    if (typeof line.status === 'string') this.said = line.status;
    if (typeof line.digest === 'string' && typeof line.total === 'number') {
      // Layers come in order: the part's number is where its digest first came.
      const index = [...this.layers.keys()].indexOf(line.digest);
      this.part = (index === -1 ? this.layers.size : index) + 1;
      const completed = typeof line.completed === 'number' ? line.completed : 0;
      this.layers.set(line.digest, { total: line.total, completed: Math.min(completed, line.total) });
      this.samples.push({ at: this.now(), bytes: this.completed() });
      const cutoff = this.now() - SPEED_WINDOW_MS;
      while (this.samples.length > 2 && (this.samples[0]?.at ?? Infinity) < cutoff) this.samples.shift();
    }
  }

  get status(): string {
    return plainPullStatus(this.said, this.part);
  }

  completed(): number {
    let sum = 0;
    for (const l of this.layers.values()) sum += l.completed;
    return sum;
  }

  total(): number {
    let sum = 0;
    for (const l of this.layers.values()) sum += l.total;
    return sum;
  }

  speed(): number | null {
    const first = this.samples[0];
    const last = this.samples.at(-1);
    if (!first || !last || last.at - first.at < 250) return null;
    return Math.max(0, ((last.bytes - first.bytes) * 1000) / (last.at - first.at));
  }

  /** Layers are announced as they start, so the total grows: the bar must not step back when one appears. */
  private monotonic(percent: number): number {
    this.shownPercent = Math.max(this.shownPercent, percent);
    return this.shownPercent;
  }

  snapshot(pullId: string, model: string, state: PullProgress['state'], error?: string): PullProgress {
    const total = this.total();
    const completed = this.completed();
    const speed = this.speed();
    const left = total - completed;
    return {
      pullId,
      model,
      status: this.status,
      completedBytes: completed,
      totalBytes: total,
      percent: state === 'done' ? 100 : total > 0 ? this.monotonic(Math.floor((completed / total) * 1000) / 10) : null,
      bytesPerSecond: speed,
      etaSeconds: speed && speed > 0 && state === 'running' ? Math.ceil(left / speed) : null,
      state,
      ...(error !== undefined ? { error } : {}),
    };
  }
}

/** Runs one pull to its end (done, error or cancelled) and returns the last progress. Never throws. */
export async function pullModel(opts: PullOptions): Promise<PullProgress> {
  const now = opts.now ?? Date.now;
  const tracker = new PullTracker(now);
  const throttle = opts.throttleMs ?? 100;
  let lastSent = -Infinity;
  // A progress held back by the throttle goes out once it allows, unless a newer one replaces it: lines that come in
  // a burst and then a pause (between layers, a slow registry) showed the bar where the burst began until the next
  // line, which may be minutes away.
  let trailing: ReturnType<typeof setTimeout> | undefined;
  const send = (p: PullProgress) => {
    lastSent = now();
    opts.onProgress(p);
  };
  const report = (p: PullProgress, force = false) => {
    clearTimeout(trailing);
    trailing = undefined;
    const wait = throttle - (now() - lastSent);
    if (force || wait <= 0) send(p);
    else trailing = setTimeout(() => send(p), wait);
  };
  const finish = (state: PullProgress['state'], error?: string) => {
    const p = tracker.snapshot(opts.pullId, opts.model, state, error);
    report(p, true);
    return p;
  };
  try {
    const res = await sendRequest({
      method: 'POST',
      url: joinUrl(opts.baseUrl, '/api/pull'),
      body: JSON.stringify({ model: opts.model, stream: true }),
      signal: opts.signal,
      headersTimeoutMs: 60_000,
      stallTimeoutMs: 120_000,
    });
    if (res.status !== 200) {
      const text = await res.text();
      let said: string | null = null;
      try {
        said = serverError(JSON.parse(text));
      } catch {
        said = null;
      }
      return finish('error', pullRefused(opts.model, said, res.status, opts.name));
    }
    for await (const event of frameEvents(res.body, 'ndjson')) {
      let line: Record<string, unknown>;
      try {
        line = JSON.parse(event.data) as Record<string, unknown>;
      } catch {
        continue; // a garbled line costs one progress update, not the pull
      }
      const said = serverError(line);
      // An error line can come mid-pull on HTTP 200 (a registry hiccup, a full disk): the pull is over.
      if (said) return finish('error', pullRefused(opts.model, said, null, opts.name));
      tracker.apply(line);
      if (line.status === 'success') return finish('done');
      report(tracker.snapshot(opts.pullId, opts.model, 'running'));
    }
    const stopped = `The server stopped answering before ${opts.model} finished downloading. ${pullAgainWords(tracker.completed())}`;
    return finish('error', opts.name !== undefined ? fromConnection(opts.name, stopped) : stopped);
  } catch (err) {
    if (opts.signal.aborted) return finish('cancelled');
    // Named as the Models screen's other calls are: "Cannot reach GPU box at …", not "the server at …".
    const message =
      err instanceof LegError ? (opts.name !== undefined ? legFailure(err, opts.name, opts.baseUrl) : err.message) : err instanceof Error ? err.message : String(err);
    return finish('error', `${message} ${pullAgainWords(tracker.completed())}`);
  }
}
