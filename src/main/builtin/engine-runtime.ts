/**
 * Inside the engine process: node-llama-cpp itself. Loads models with the context size main chose, generates
 * from an already rendered prompt, counts tokens, reports memory. It never interprets what it generates: text
 * goes out as the model wrote it (the `builtin` dialect in main splits reasoning and reads tool calls).
 *
 * Only prebuilt binaries are used (`build: 'never'`, `skipDownload`): nothing is downloaded or compiled at run
 * time. The backend is chosen by node-llama-cpp (CUDA, Vulkan, Metal, else CPU), or forced with
 * FIREBRAND_BUILTIN_GPU=off|cuda|vulkan|metal; FIREBRAND_BUILTIN_THREADS caps CPU threads.
 */
import { stat } from 'node:fs/promises';
import { getLlama, getLlamaGpuTypes, LlamaLogLevel, type Llama, type LlamaContext, type LlamaContextSequence, type LlamaModel, type Token } from 'node-llama-cpp';
import type { EngineOutput } from './event-coalescer';
import { TokenText } from './token-text';
import type { EngineBackend, EngineEvent, EngineLoaded, EngineStatus, ModelSpec, Sampling } from './protocol';

interface Loaded {
  model: LlamaModel;
  context: LlamaContext;
  sequence: LlamaContextSequence;
  /** The context's real size: node-llama-cpp rounds the window asked for up to llama.cpp's 256-token steps. */
  contextSize: number;
  /** The window asked for: a request for the same window keeps this context (and its cache). */
  requested: number;
  /** The file's version as it was loaded (./fileVersion): a file replaced under its name is loaded again. */
  version: string | null;
}

/** A tokenizer-only load, with the file version it read. */
interface Vocab {
  model: Promise<LlamaModel>;
  version: string | null;
}

/** llama-server's defaults (`/props` default_generation_settings), so a model answers the same here and there. */
const DEFAULT_SAMPLING: Required<Omit<Sampling, 'seed'>> = { temperature: 0.8, topK: 40, topP: 0.95, minP: 0.05, repeatPenalty: 1 };

export interface GenerateInput {
  model: ModelSpec;
  prompt: string;
  addBos: boolean;
  sampling: Sampling;
  maxTokens: number | null;
}

export class EngineRuntime {
  private llama: Promise<Llama> | null = null;
  /** One generation at a time: a model's context has one sequence, and a reload must not pull it from under one. */
  private generating: Promise<void> = Promise.resolve();
  private readonly loaded = new Map<string, Loaded>();
  /** Tokenizer-only loads, for counting before a model is loaded (cheap: no weights). */
  private readonly vocabs = new Map<string, Vocab>();
  /** Loads run one at a time: two sends for one model must not load it twice. */
  private queue: Promise<unknown> = Promise.resolve();
  /** llama.cpp's error lines since the last load began: they hold why a file was refused, which its error does not. */
  private errorLines: string[] = [];

  constructor(private readonly log: (message: string) => void) {}

  private getLlama(): Promise<Llama> {
    this.llama ??= this.startLlama().catch((err: unknown) => {
      this.llama = null;
      throw err;
    });
    return this.llama;
  }

  private async startLlama(): Promise<Llama> {
    try {
      return await getLlama({
      build: 'never',
      skipDownload: true,
      progressLogs: false,
      gpu: gpuOption(process.env['FIREBRAND_BUILTIN_GPU']),
      ...(threadsOption() !== undefined ? { maxThreads: threadsOption() } : {}),
      logLevel: LlamaLogLevel.error,
      logger: (_level, message) => {
        const line = message.trimEnd();
        this.errorLines.push(line);
        if (this.errorLines.length > 20) this.errorLines.shift();
        this.log(line);
      },
      });
    } catch (err) {
      // Only prebuilt binaries are used: nothing is downloaded or compiled here, so say what is missing.
      const why = err instanceof Error ? err.message : String(err);
      throw new Error(`No llama.cpp build for this machine (${process.platform}-${process.arch}) could be started: ${why}`);
    }
  }

  async status(): Promise<EngineStatus> {
    const llama = await this.getLlama();
    return { backend: await backendOf(llama), loaded: this.loadedList() };
  }

  loadedList(): EngineLoaded[] {
    return [...this.loaded.entries()].map(([path, l]) => ({
      path,
      contextSize: l.contextSize,
      requestedSize: l.requested,
      // What llama.cpp allocated for the context (the KV cache of the whole window, compute buffers): its state
      // size would count only the cells filled so far, a few bytes right after a load.
      memoryBytes: l.model.size + Math.max(l.context.stateSize, l.context.memoryUsage.ram + l.context.memoryUsage.vram),
    }));
  }

  /** The model with a context of exactly `spec.contextSize`; a loaded one with another size gets a new context. */
  load(spec: ModelSpec): Promise<Loaded> {
    const run = this.queue.then(() => this.loadNow(spec));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async loadNow(spec: ModelSpec): Promise<Loaded> {
    // Taken before the weights are read: a file changed during the load is loaded again next time.
    const version = await fileVersion(spec.path);
    let have = this.loaded.get(spec.path);
    // A file replaced under the same name (deleted and copied anew, or overwritten in place, as a re-download does)
    // answered with the old weights, or blank from a mapping of a file rewritten under it (builtin audit #1), while
    // the request record named the new file's digest. A file that is gone still answers from memory.
    if (have && changed(have.version, version)) {
      this.log(`${fileName(spec.path)} changed on disk since it was loaded: loading it again`);
      await this.unload(spec.path);
      have = undefined;
    }
    if (have && have.requested === spec.contextSize) return have;
    const llama = await this.getLlama();
    let model = have?.model;
    if (have) {
      await have.context.dispose();
      this.loaded.delete(spec.path);
    }
    model ??= await this.loadModelFile(llama, spec.path, false);
    try {
      // Firebrand chose the size from the memory arithmetic; the library must not shrink it silently.
      const threads = threadsOption();
      const context = await model.createContext({ contextSize: spec.contextSize, sequences: 1, failedCreationRemedy: false, ...(threads !== undefined ? { threads } : {}) });
      const entry = { model, context, sequence: context.getSequence(), contextSize: context.contextSize, requested: spec.contextSize, version: have?.version ?? version };
      this.loaded.set(spec.path, entry);
      return entry;
    } catch (err) {
      await model.dispose();
      throw new Error(`${fileName(spec.path)} could not be loaded with a ${spec.contextSize}-token window: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /**
   * Loads a model file (or only its vocabulary). node-llama-cpp says only "Failed to load model" when llama.cpp
   * refuses a file; llama.cpp logged why ("unknown model architecture: 'x'"), so the error carries that line.
   */
  private async loadModelFile(llama: Llama, path: string, vocabOnly: boolean): Promise<LlamaModel> {
    this.errorLines = [];
    try {
      return await llama.loadModel({ modelPath: path, ...(vocabOnly ? { vocabOnly } : {}) });
    } catch (err) {
      const said = err instanceof Error ? err.message : String(err);
      const why = this.errorLines.map((l) => /error loading model: (.+)$/.exec(l)?.[1]).find((w) => w !== undefined);
      const reason = why ? `llama.cpp says: ${why}` : said;
      throw new Error(`${fileName(path)} could not be loaded: ${reason.replace(/\.$/, '')}. The file may be damaged, or need a newer llama.cpp than this Firebrand has.`);
    }
  }

  /** A load or unload asked from outside waits for the running generation: it may replace that context. */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.generating.then(work);
    this.generating = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  async unload(path: string): Promise<void> {
    await this.dropVocab(path);
    const have = this.loaded.get(path);
    if (!have) return;
    this.loaded.delete(path);
    await have.context.dispose();
    await have.model.dispose();
  }

  /** Counted with the file as it is now: a loaded model of a file replaced since is not asked (its next load replaces it). */
  async count(path: string, text: string, addBos: boolean): Promise<number> {
    const version = await fileVersion(path);
    const have = this.loaded.get(path);
    const model = have && !changed(have.version, version) ? have.model : await this.vocab(path, version);
    return promptTokens(model, text, addBos).length;
  }

  private async vocab(path: string, version: string | null): Promise<LlamaModel> {
    let hit = this.vocabs.get(path);
    if (hit && changed(hit.version, version)) {
      await this.dropVocab(path);
      hit = undefined;
    }
    if (!hit) {
      const model = this.getLlama().then((llama) => this.loadModelFile(llama, path, true));
      const entry = { model, version };
      model.catch(() => {
        if (this.vocabs.get(path) === entry) this.vocabs.delete(path);
      });
      this.vocabs.set(path, entry);
      hit = entry;
    }
    return hit.model;
  }

  private async dropVocab(path: string): Promise<void> {
    const vocab = this.vocabs.get(path);
    this.vocabs.delete(path);
    await vocab?.model.then((m) => m.dispose()).catch(() => undefined);
  }

  /**
   * Generates until the model ends its turn, the token limit, a full context or `signal`. Reuses the KV cache of
   * the previous request's common prefix (a conversation resends its history every turn).
   */
  generate(input: GenerateInput, out: EngineOutput, signal: AbortSignal): Promise<void> {
    const before = this.generating;
    // A stop while it waits for the generations before it ends it at once (it has touched nothing): it used to wait
    // for the answer before it, on another model perhaps for minutes, to end first (round 7, engine #1). The ones
    // behind it still wait for those before it.
    const run = Promise.race([before, stopped(signal)]).then(() => this.generateNow(input, out, signal));
    this.generating = Promise.all([before, run.catch(() => undefined)]).then(() => undefined);
    return run;
  }

  private async generateNow(input: GenerateInput, out: EngineOutput, signal: AbortSignal): Promise<void> {
    const emit = (event: EngineEvent) => out.push(event);
    // Stopped while it waited for another generation: nothing to do.
    if (signal.aborted) {
      emit({ type: 'done', reason: 'abort', promptTokens: 0, completionTokens: 0, promptMs: 0, generationMs: 0 });
      return;
    }
    let loaded: Loaded;
    try {
      loaded = await this.load(input.model);
    } catch (err) {
      // The message names the file and says why (./loadNow).
      emit({ type: 'error', message: err instanceof Error ? err.message : String(err) });
      return;
    }
    const { model, sequence, contextSize } = loaded;
    const tokens = promptTokens(model, input.prompt, input.addBos);
    if (tokens.length >= contextSize) {
      emit({ type: 'error', message: `The prompt is ${tokens.length} tokens and the context window is ${contextSize}: nothing was generated.` });
      return;
    }
    let common = commonPrefix(sequence.contextTokens, tokens);
    // The last prompt token is always evaluated again: its logits choose the first token.
    if (common >= tokens.length) common = tokens.length - 1;
    if (common < sequence.nextTokenIndex) await sequence.eraseContextTokenRanges([{ start: common, end: sequence.nextTokenIndex }]);
    emit({ type: 'start', promptTokens: tokens.length, cachedTokens: common });

    const s = { ...DEFAULT_SAMPLING, ...input.sampling };
    const started = performance.now();
    let firstAt: number | null = null;
    let completion = 0;
    let reason: 'eog' | 'length' | 'context-full' | 'abort' | null = null;
    const text = new TokenText(model);
    // The prompt is read a batch at a time, so a stop is heard between batches: read in one call, a long chat's
    // prompt on a CPU (minutes) would have to be read to its end before the stop took effect. The last token is
    // left for `evaluate`, whose logits choose the first token of the answer.
    const batch = Math.max(1, loaded.context.batchSize);
    let read = common;
    while (tokens.length - 1 - read > batch && !signal.aborted) {
      await sequence.evaluateWithoutGeneratingNewTokens(tokens.slice(read, read + batch));
      read += batch;
    }
    if (signal.aborted) {
      const ended = performance.now();
      emit({ type: 'done', reason: 'abort', promptTokens: tokens.length, completionTokens: 0, promptMs: ended - started, generationMs: 0 });
      return;
    }
    const iterator = sequence.evaluate(tokens.slice(read), {
      temperature: s.temperature,
      topK: s.topK,
      topP: s.topP,
      minP: s.minP,
      ...(s.seed !== undefined ? { seed: s.seed } : {}),
      ...(s.repeatPenalty !== 1 ? { repeatPenalty: { penalty: s.repeatPenalty, punishTokens: () => sequence.contextTokens.slice(-64) } } : {}),
    });
    for await (const token of iterator) {
      firstAt ??= performance.now();
      if (signal.aborted) {
        reason = 'abort';
        break;
      }
      if (model.isEogToken(token)) {
        reason = 'eog';
        break;
      }
      completion++;
      // Kept as a token: it becomes text with the others when the text goes out.
      text.push(token as Token);
      out.pending(text);
      if (input.maxTokens !== null && completion >= input.maxTokens) {
        reason = 'length';
        break;
      }
      // The next token would not fit: llama-server stops here too (no context shift), with finish_reason length.
      if (sequence.nextTokenIndex + 1 >= contextSize) {
        reason = 'context-full';
        break;
      }
    }
    reason ??= signal.aborted ? 'abort' : 'eog';
    const rest = text.flush();
    if (rest !== '') emit({ type: 'text', text: rest });
    const ended = performance.now();
    const promptMs = (firstAt ?? ended) - started;
    emit({ type: 'done', reason, promptTokens: tokens.length, completionTokens: completion, promptMs, generationMs: ended - (firstAt ?? ended) });
  }

  async dispose(): Promise<void> {
    for (const path of [...this.loaded.keys()]) await this.unload(path);
    const llama = await this.llama?.catch(() => null);
    await llama?.dispose();
  }
}

/** Settles when `signal` aborts (at once if it has). */
function stopped(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

/**
 * A file's version as the file system tells it (device, inode, size, mtime): a copy over it, a new file under its
 * name, or a re-download each give another. Null when the file is gone (a loaded model still answers from memory).
 */
async function fileVersion(path: string): Promise<string | null> {
  const s = await stat(path).catch(() => null);
  return s ? `${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}` : null;
}

/** Whether a file loaded as `had` is another file now; unknown on either side (gone) is not a change. */
function changed(had: string | null, now: string | null): boolean {
  return had !== null && now !== null && had !== now;
}

function fileName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

/** As llama-server tokenizes a rendered prompt: BOS when the vocabulary adds one, special tokens parsed. */
function promptTokens(model: LlamaModel, prompt: string, addBos: boolean): Token[] {
  const body = model.tokenize(prompt, true);
  const bos = model.tokens.bos;
  return addBos && bos !== null ? [bos, ...body] : body;
}

function commonPrefix(a: readonly Token[], b: readonly Token[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

/**
 * FIREBRAND_BUILTIN_THREADS caps the CPU threads (default: node-llama-cpp's, the cores useful for math). On a
 * machine shared with other busy processes, ggml's spinning thread pool can be far slower with more threads.
 */
function threadsOption(): number | undefined {
  const n = Number(process.env['FIREBRAND_BUILTIN_THREADS']);
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

function gpuOption(value: string | undefined): 'auto' | false | 'cuda' | 'vulkan' | 'metal' {
  if (value === 'off' || value === 'cpu' || value === 'false') return false;
  if (value === 'cuda' || value === 'vulkan' || value === 'metal') return value;
  return 'auto';
}

async function backendOf(llama: Llama): Promise<EngineBackend> {
  const [supported, installed, vram, ram] = await Promise.all([
    getLlamaGpuTypes('supported').catch(() => []),
    getLlamaGpuTypes('allValid').catch(() => []),
    llama.getVramState().catch(() => null),
    llama.getRamState(),
  ]);
  const names = (list: readonly (string | false)[]) => list.filter((g): g is string => g !== false);
  return {
    backend: llama.gpu === false ? 'cpu' : llama.gpu,
    supportedGpus: names(supported),
    installedGpus: names(installed),
    vram: vram && vram.total > 0 ? { total: vram.total, free: vram.free } : null,
    ram: { total: ram.total, free: ram.free },
  };
}
