import { fitsWindow } from '../../shared/context-estimate';
import { contextRefusedText, type ContextRefusedMeta } from '../../shared/system-turns';
/**
 * One built-in request, from its stored record (the `builtin` dialect's body) to the engine's events:
 * - `preflight`: the model file must be usable and fit with its window; the prompt is rendered from the GGUF's
 *   template as llama-server renders it and counted with the model's own tokenizer, so a conversation that does
 *   not fit is refused with its exact size, and the splitter knows whether the prompt ends inside a think block.
 * - `send`: the leg. It runs the same prepared prompt in the engine process and frames the events as the
 *   built-in wire (NDJSON), which the step's normal pipeline (framing, dialect, reducer) reads. A stop aborts;
 *   the engine dying mid-answer arrives as an `error` event after the text that came.
 */
import { endsInsideThink } from '../engine/think';
import type { PreflightResult } from '../engine/types';
import { UserFacingError } from '../errors';
import { LegError, type LegResponse } from '../leg/http';
import type { BuiltinService } from './builtin-service';
import { engineEventLine, type EngineEvent, type Sampling } from './protocol';

interface Prepared {
  file: string;
  path: string;
  contextSize: number;
  prompt: string;
  addBos: boolean;
  promptTokens: number;
  sampling: Sampling;
  maxTokens: number | null;
}

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

export class BuiltinRequests {
  /** The last few prepared bodies: the preflight's work is reused by the send that follows it. */
  private readonly prepared = new Map<string, Prepared>();

  constructor(private readonly service: BuiltinService) {}

  async preflight(body: string): Promise<PreflightResult> {
    let p: Prepared;
    try {
      const r = await this.prepare(body);
      if ('refused' in r) return r.refused;
      p = r;
    } catch (err) {
      return { kind: 'error', message: err instanceof Error ? err.message : String(err) };
    }
    if (!fitsWindow(p.promptTokens, p.contextSize)) {
      // The same card as every other refusal (src/shared/system-turns.ts), its size the tokenizer's exact count.
      const meta: ContextRefusedMeta = { estimate: p.promptTokens, window: p.contextSize, model: p.file, largest: [], counted: 'tokenizer' };
      return { kind: 'refused', source: 'context-refused', message: contextRefusedText(meta), meta: { ...meta } };
    }
    this.remember(body, p);
    return { kind: 'ok', promptTokens: p.promptTokens, thinkOpen: endsInsideThink(p.prompt) };
  }

  /** `turnId`: the answer this generates, whose own waiting state the pages show (absent for a lane's request). */
  async send(body: string, signal: AbortSignal, turnId?: string): Promise<LegResponse> {
    let p = this.prepared.get(body);
    if (!p) {
      const r = await this.prepare(body).catch((err: unknown) => ({ refused: { message: err instanceof Error ? err.message : String(err) } }));
      if ('refused' in r) return failed(r.refused.message);
      p = r;
    }
    const prepared = p;
    const host = this.service.engine();
    const service = this.service;
    service.busy(prepared.file, 1);
    // Idle models whose room this one needs are let go first (the preflight counted their memory as free).
    await service.makeRoom(prepared.file, prepared.contextSize).catch((err: unknown) => service.deps.log(`builtin: making room failed: ${String(err)}`));
    // Its place in the engine's line, taken as it is handed over: the engine runs generations in this order.
    const place = service.waiting.join(turnId, prepared.file, prepared.contextSize);
    const events = host.generate(
      { type: 'generate', model: { path: prepared.path, contextSize: prepared.contextSize }, prompt: prepared.prompt, addBos: prepared.addBos, sampling: prepared.sampling, maxTokens: prepared.maxTokens },
      signal,
    );
    const encoder = new TextEncoder();
    // Once the engine starts, the Running panel learns what it now holds: a model it has just loaded (or loaded
    // again with another window). One it already held as it is needs no status round trip, which would come
    // before the answer's first text (with the prompt mostly cached, longer than reading the rest of it).
    let loaded = service.holds(prepared.file, prepared.contextSize);
    // A model the engine does not hold yet is loaded before its first token (engine start, weights read: seconds to
    // minutes on a CPU): the chat says so meanwhile, instead of a silent "…" (first-hour audit F5).
    let loading = !loaded;
    if (loading) service.loadingFor(prepared.file, true);
    const loadEnded = () => {
      if (!loading) return;
      loading = false;
      service.loadingFor(prepared.file, false);
    };
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      loadEnded();
      place.ended();
      service.busy(prepared.file, -1);
      // Ended before its first token (stopped while the engine loaded its model, which it cannot stop half-way): the
      // load went on. What the engine holds is read now, so that model gets its idle clock (./loaded-models.ts
      // `apply`) and the Running panel shows it, instead of it staying loaded unseen for good (builtin audit #2).
      if (!loaded) {
        void service
          .refresh()
          .then(() => service.deps.changed(`idle:${prepared.file}`))
          .catch(() => undefined);
      }
    };
    const generation = events[Symbol.asyncIterator]();
    /** Reads the rest of the generation unseen (after `pending`, a read already asked), then lets it go. */
    const drain = (pending?: Promise<IteratorResult<unknown>>) => {
      void (async () => {
        if (pending && (await pending).done) return;
        while (!(await generation.next()).done);
      })()
        .catch(() => undefined)
        .finally(end);
    };
    const stopped = new Promise<'stopped'>((resolve) => {
      if (signal.aborted) resolve('stopped');
      else signal.addEventListener('abort', () => resolve('stopped'), { once: true });
    });
    // A step that stops before it reads the answer (it stopped itself meanwhile) never reads it: the generation still
    // ends in the engine, and only then does it leave the line and count as done, or every later answer would say it
    // waits behind it (and its model would never be unloaded as idle).
    let reading = false;
    let unread = false;
    void stopped.then(() => {
      if (reading) return;
      unread = true;
      drain();
    });
    let started = false;
    async function* bytes(): AsyncIterable<Uint8Array> {
      if (unread) throw new LegError('aborted', 'Stopped.');
      reading = true;
      let handedOff = false;
      try {
        // One chunk per batch of events (every event that arrived since the last read), as a socket would carry them.
        for (;;) {
          const next = generation.next();
          // Before its first token a stop ends the answer at once: the engine may be loading its model (which it
          // cannot stop half-way, seconds to minutes on a CPU) or running answers before it. It leaves the line when
          // the engine has ended it; nothing of it was said yet, so nothing is lost.
          const got = started ? await next : await Promise.race([next, stopped]);
          if (got === 'stopped') {
            handedOff = true;
            drain(next);
            throw new LegError('aborted', 'Stopped.');
          }
          if (got.done) break;
          const batch = got.value;
          if (signal.aborted) throw new LegError('aborted', 'Stopped.');
          const first = batch.find((event) => event.type === 'start');
          // The first token (or the end) came: the answer waits no more. Until then, once loaded, the engine reads the
          // conversation (a long chat, on a CPU, for a minute or more), and the answer says so (builtin audit #7).
          if (batch.some((event) => event.type !== 'start')) place.started();
          else if (first?.type === 'start') place.reading(first.promptTokens - first.cachedTokens);
          if (first) {
            started = true;
            if (!loaded) {
              loaded = true;
              loadEnded();
              await service.refresh().catch(() => undefined);
            }
          }
          yield encoder.encode(batch.length === 1 ? engineEventLine(batch[0]!) : batch.map(engineEventLine).join(''));
        }
        if (signal.aborted) throw new LegError('aborted', 'Stopped.');
      } finally {
        if (!handedOff) end();
      }
    }
    return { status: 200, body: bytes(), text: () => Promise.resolve('') };
  }

  private remember(body: string, p: Prepared): void {
    this.prepared.set(body, p);
    while (this.prepared.size > 4) this.prepared.delete(this.prepared.keys().next().value as string);
  }

  private async prepare(body: string): Promise<Prepared | { refused: PreflightResult & { message: string } }> {
    const record = JSON.parse(body) as Rec;
    const file = typeof record['model'] === 'string' ? record['model'] : '';
    const model = await this.service.deps.library.model(file);
    const contextSize = num(record['context_size']) ?? (await this.service.windowFor(file)).contextWindow ?? 4096;
    const misfit = await this.service.fitProblem(model, contextSize);
    if (misfit) return { refused: { kind: 'refused', source: 'model-does-not-fit', message: misfit, meta: { model: file, window: contextSize, advice: misfit } } };
    let rendered;
    try {
      rendered = model.template.render({
        messages: record['messages'],
        tools: record['tools'],
        ...(isRec(record['chat_template_kwargs']) ? { kwargs: record['chat_template_kwargs'] } : {}),
      });
    } catch (err) {
      throw new UserFacingError('invalid-payload', `${file}'s chat template refused this conversation: ${err instanceof Error ? err.message : String(err)}`);
    }
    const counted = await this.service.engine().request<{ tokens: number }>({ type: 'count', path: model.entry.path, text: rendered.prompt, addBos: model.info.tokens.addBos });
    return {
      file,
      path: model.entry.path,
      contextSize,
      prompt: rendered.prompt,
      addBos: model.info.tokens.addBos,
      promptTokens: counted.tokens,
      sampling: samplingOf(record),
      maxTokens: num(record['max_tokens']) ?? num(record['num_predict']) ?? null,
    };
  }
}

/** Sampling fields of the record, by llama-server's (and the aliases') names. */
function samplingOf(r: Rec): Sampling {
  const s: Sampling = {};
  const t = num(r['temperature']);
  if (t !== undefined) s.temperature = t;
  const k = num(r['top_k']);
  if (k !== undefined) s.topK = k;
  const p = num(r['top_p']);
  if (p !== undefined) s.topP = p;
  const m = num(r['min_p']);
  if (m !== undefined) s.minP = m;
  const rp = num(r['repeat_penalty']);
  if (rp !== undefined) s.repeatPenalty = rp;
  const seed = num(r['seed']);
  if (seed !== undefined) s.seed = seed;
  return s;
}

/** A request that could not start: one `error` event, so the turn says why like any failed answer. */
function failed(message: string): LegResponse {
  const event: EngineEvent = { type: 'error', message };
  const line = new TextEncoder().encode(engineEventLine(event));
  async function* body(): AsyncIterable<Uint8Array> {
    yield line;
  }
  return { status: 200, body: body(), text: () => Promise.resolve(JSON.stringify(event)) };
}
