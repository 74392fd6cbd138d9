/**
 * Persistence cost (issue 8, item 5): the same paced stream through the engine's step (runStep: leg, framing,
 * dialect, reducer, one event per chunk serialized as serve mode sends it) twice, once persisting to SQLite in
 * a data folder (the step record, the batched turn writes, FTS) and once with stores that write nothing.
 * Measured: this process's CPU time (process.cpuUsage) per stream; the server runs in a child process.
 * Goal: persisting adds under 10 %: the median of the rounds' own ratios (each round's two streams back to back,
 * the first of them alternating), as in builtin.bench.ts, so drift in the machine's load between rounds cancels.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ConversationStore } from '../src/main/db/conversation-store';
import { openDatabase } from '../src/main/db/open-database';
import { StepStore } from '../src/main/db/step-store';
import { getDialect } from '../src/main/dialects/registry';
import { runStep, type StepDeps } from '../src/main/engine/run-step';
import type { EngineConnection } from '../src/main/engine/types';
import type { Turn } from '../src/shared/turn';
import { withCleanup } from './lib/cleanup';
import { tempDir } from './lib/firebrand-ui';
import { percentile, quick, report } from './lib/report';

const TOKENS = quick ? 2_000 : 10_000;
const RATE = 1_000;
// Six pairs: on the shared machine a stream's CPU moved between 450 and 880 ms for the same path within one run,
// so four pairs left the medians of the two sides on different load levels.
const ROUNDS = quick ? 3 : 6;

/** The floor's stores: the same classes with every write taken out. */
class UnwrittenTurns extends ConversationStore {
  override updateTurn(): void {}
}
class UnwrittenSteps extends StepStore {
  override begin(step: { id: string }): string {
    return step.id;
  }
  override finish(): boolean {
    return true;
  }
}

let serial = 0;

async function streamOnce(deps: StepDeps, connection: EngineConnection): Promise<number> {
  const id = `s${++serial}`;
  const turn: Turn = { id: `${id}-a`, conversationId: 'bench', parentId: 'bench-u', role: 'assistant', blocks: [], meta: {}, status: 'streaming', model: 'llama3.2:3b', createdAt: serial };
  deps.store.appendTurn(turn, serial);
  const body = JSON.stringify({ model: 'llama3.2:3b', messages: [{ role: 'user', content: 'write a long answer' }], stream: true });
  const before = process.cpuUsage();
  const done = await runStep(deps, { connection, model: 'llama3.2:3b', turn, stepIndex: 0, body, attachments: [], window: undefined, estimate: 10, tools: [], thinkOpen: false, signal: new AbortController().signal });
  const used = process.cpuUsage(before);
  if (done.status !== 'done') throw new Error(`the stream ended ${done.status}: ${done.error ?? ''}`);
  return (used.user + used.system) / 1000;
}

await withCleanup(async (cleanup) => {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'lib/stream-child.ts'), String(TOKENS), String(RATE)], { stdio: ['ignore', 'pipe', 'inherit'] });
  cleanup.add('stream child', () => new Promise((r) => (child.exitCode !== null ? r(undefined) : (child.once('exit', r), child.kill('SIGTERM')))));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /URL (\S+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`stream child exited ${code}`)));
  });
  const connection: EngineConnection = { id: 'bench', kind: 'ollama', label: 'Ollama', baseUrl: url, dialect: getDialect('ollama'), authHeaders: () => ({}) };

  const depsFor = (persist: boolean): StepDeps => {
    const db = openDatabase(join(tempDir(cleanup, 'firebrand-bench-'), 'firebrand.db'));
    cleanup.add('db', () => db.close());
    const store = persist ? new ConversationStore(db) : new UnwrittenTurns(db);
    store.createConversation('bench', 'Bench', 'llama3.2:3b', 0);
    store.appendTurn({ id: 'bench-u', conversationId: 'bench', parentId: null, role: 'user', blocks: [{ type: 'text', text: 'write a long answer' }], meta: {}, status: 'done', createdAt: 0 }, 0);
    let n = 0;
    return {
      store,
      steps: persist ? new StepStore(db, () => undefined) : new UnwrittenSteps(db, () => undefined),
      // Serve mode serializes every event for its WebSocket; both runs pay that alike.
      emit: (channel, payload) => void JSON.stringify({ t: 'event', channel, payload }),
      newId: () => `id${++n}`,
      now: Date.now,
      log: (m) => console.error(m),
    };
  };
  const persisted = depsFor(true);
  const unpersisted = depsFor(false);
  // Warm-up: JIT and the first connection, for both paths.
  await streamOnce(persisted, connection);
  await streamOnce(unpersisted, connection);
  const value: number[] = [];
  const floor: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Alternating which goes first: a load that rises (or falls) through a round does not always favour one side.
    if (round % 2 === 0) {
      floor.push(await streamOnce(unpersisted, connection));
      value.push(await streamOnce(persisted, connection));
    } else {
      value.push(await streamOnce(persisted, connection));
      floor.push(await streamOnce(unpersisted, connection));
    }
  }
  const median = (xs: number[]) => percentile([...xs].sort((a, b) => a - b), 50);
  const ratio = median(value.map((x, i) => x / floor[i]!));
  report({
    figure: `engine CPU per ${TOKENS.toLocaleString('en-US')}-token stream at 1,000 tokens/s, persisted (median of ${ROUNDS})`,
    value: Number(median(value).toFixed(1)),
    unit: 'ms CPU',
    floor: Number(median(floor).toFixed(1)),
    ratio: Number(ratio.toFixed(3)),
    goal: '< 1.10x floor (under 10 % extra), median of the rounds\' ratios',
    met: ratio < 1.1,
    note: `runs ${value.map((x) => x.toFixed(0)).join('/')} vs ${floor.map((x) => x.toFixed(0)).join('/')} ms (ratios ${value.map((x, i) => (x / floor[i]!).toFixed(2)).join('/')})`,
  });
});
