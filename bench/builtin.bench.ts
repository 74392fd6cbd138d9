/**
 * The built-in engine (issue 20): a long scripted answer (test/support/scripted-gguf SCRIPTS.long, a context
 * filled to its end) through Firebrand: engine process -> main (serve mode, as built) -> a renderer-like client
 * on serve mode's WebSocket, against the floor: the same model, context, prompt, sampling and thread count run
 * by node-llama-cpp alone in one process (bench/lib/llama-alone.ts). Floor and Firebrand alternate in rounds so
 * both see the same load.
 * - tokens/s: tokens generated / time from the first text to the last (Firebrand: as the client receives them);
 * - send to first token: Firebrand from the client's `chat:send` to the first text it receives (a new chat each
 *   time: conversation, request record, template, exact count, generation), the floor from its call with the
 *   rendered prompt to the first token's text, the whole prompt evaluated. Firebrand's engine reuses the KV cache
 *   of its previous request's common prefix, but the previous chat's title request (a prompt of its own) has
 *   taken the cache by then, so it evaluates almost the whole prompt too.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import Database from 'better-sqlite3';
import { ChatTemplate } from '../src/main/builtin/prompt/chat-template';
import { readModelInfo } from '../src/main/library/gguf-info';
import { generateScriptedModel } from '../test/support/scripted-gguf/generate';
import { SCRIPTS } from '../test/support/scripted-gguf/scripts';
import { withCleanup } from './lib/cleanup';
import { requireBuild, serve, tempDir } from './lib/firebrand-ui';
import { percentile, quick, report } from './lib/report';
import { connectServe, nextStream } from './lib/serve-client';

const CONTEXT = 4_096;
const ROUNDS = quick ? 2 : 7;
const THREADS = 1;
const ASK = 'Count sheep for me, please.';

interface Alone {
  promptTokens: number;
  firstMs: number;
  tokens: number;
  generationMs: number;
  /** CPU time of the generating process (Firebrand: the engine process) during the round. */
  cpuMs?: number;
}

/** User + system CPU time of a process so far (Linux /proc; 0 elsewhere). */
function cpuMsOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

/** The child processes of `pid` (Linux /proc), e.g. serve mode's engine process. */
function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((tid) => readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number));
  } catch {
    return [];
  }
}

await withCleanup(async (cleanup) => {
  requireBuild();
  const modelPath = generateScriptedModel(SCRIPTS.long, { contextLength: CONTEXT });
  const dataDir = join(tempDir(cleanup, 'firebrand-bench-builtin-'), 'data');
  mkdirSync(join(dataDir, 'models'), { recursive: true });
  copyFileSync(modelPath, join(dataDir, 'models', 'long.gguf'));

  // Firebrand: one engine thread, like the floor (a 2-core machine shared with other work).
  process.env['FIREBRAND_BUILTIN_THREADS'] = String(THREADS);
  const s = await serve(cleanup, dataDir, 'http://127.0.0.1:9');
  const client = await connectServe(s);
  cleanup.add('client', () => client.close());
  let enginePid = 0;
  const send = async () => {
    const cpuBefore = enginePid ? cpuMsOf(enginePid) : 0;
    const stream = nextStream(client);
    const sentAt = performance.now();
    const sent = await client.invoke<{ conversationId: string }>('chat:send', { conversationId: null, text: ASK, model: 'long.gguf', connectionId: 'builtin' });
    const titleOf = async () => (await client.invoke<{ id: string; title: string }[]>('conversations:list', {})).find((c) => c.id === sent.conversationId)?.title;
    const first = await titleOf();
    const t = await stream;
    // The engine's CPU up to the answer's end, as the floor's up to its last token: the title request that follows
    // (its own prompt and up to 200 tokens, on the same engine process) is no part of this answer.
    const cpuMs = enginePid ? cpuMsOf(enginePid) - cpuBefore : 0;
    // After the answer, the title lane asks the engine for the chat's title: the round ends once the chat is named,
    // so that generation does not run into the floor's round.
    for (let i = 0; i < 600 && (await titleOf()) === first; i++) await new Promise((r) => setTimeout(r, 100));
    const tokens = t.finish.usage?.outputTokens ?? 0;
    if (t.finish.stop !== 'max_tokens' || tokens < CONTEXT / 2) throw new Error(`the answer ended ${t.finish.stop} after ${tokens} tokens`);
    return { firstMs: t.firstAt - sentAt, tokens, generationMs: t.endAt - t.firstAt, promptTokens: t.finish.usage?.inputTokens ?? 0, cpuMs };
  };
  // Warm-up: loads the model (the floor loads it before its first call too) and leaves a request record behind.
  await send();
  enginePid = childrenOf(s.child.pid!)[0] ?? 0;

  // The floor's prompt is the one Firebrand rendered: its stored request record through the same template.
  const db = new Database(join(dataDir, 'firebrand.db'), { readonly: true });
  const row = db.prepare('SELECT r.template AS template FROM steps s JOIN request_bodies r ON r.digest = s.request_digest WHERE s.turn_id IS NOT NULL ORDER BY s.created_at DESC LIMIT 1').get() as { template: string };
  db.close();
  const record = JSON.parse((JSON.parse(row.template) as { t?: string }[]).map((x) => x.t ?? '').join('')) as Record<string, unknown>;
  const info = await readModelInfo(modelPath);
  const kwargs = record['chat_template_kwargs'];
  const prompt = new ChatTemplate(info.template, info.tokens).render({
    messages: record['messages'],
    tools: record['tools'],
    ...(kwargs && typeof kwargs === 'object' ? { kwargs: kwargs as Record<string, unknown> } : {}),
  }).prompt;

  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'lib/llama-alone.ts'), modelPath, String(CONTEXT), String(THREADS)], { stdio: ['pipe', 'pipe', 'inherit'] });
  cleanup.add('llama alone', () => child.kill('SIGTERM'));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const readLine = async () => {
    const next = await lines.next();
    if (next.done) throw new Error('llama-alone exited');
    return next.value;
  };
  if ((await readLine()) !== 'READY') throw new Error('llama-alone did not start');
  const alone = async (): Promise<Alone> => {
    const cpuBefore = cpuMsOf(child.pid!);
    child.stdin.write(`${JSON.stringify({ prompt, addBos: info.tokens.addBos })}\n`);
    return { ...(JSON.parse(await readLine()) as Alone), cpuMs: cpuMsOf(child.pid!) - cpuBefore };
  };
  await alone(); // its warm-up: the JIT and a first prompt in the cache, as Firebrand's

  const app: Alone[] = [];
  const floor: Alone[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    floor.push(await alone());
    app.push(await send());
  }
  if (app.some((a) => a.promptTokens !== floor[0]!.promptTokens)) {
    throw new Error(`the prompts differ: Firebrand ${app.map((a) => a.promptTokens).join('/')} tokens, the floor ${floor[0]!.promptTokens}`);
  }
  const rate = (r: Alone) => r.tokens / (r.generationMs / 1000);
  const median = (xs: number[]) => percentile([...xs].sort((a, b) => a - b), 50);
  const v = median(app.map(rate));
  const f = median(floor.map(rate));
  report({
    figure: `built-in engine: ${app[0]!.tokens.toLocaleString('en-US')}-token answer through serve mode (median of ${ROUNDS})`,
    value: Math.round(v),
    unit: 'tokens/s',
    floor: Math.round(f),
    ratio: Number((v / f).toFixed(2)),
    goal: '>= 0.95x floor (node-llama-cpp alone)',
    met: v >= 0.95 * f,
    note: `runs ${app.map((r) => Math.round(rate(r))).join('/')} vs ${floor.map((r) => Math.round(rate(r))).join('/')} tokens/s; CPU per token in the generating process ${(median(app.map((r) => r.cpuMs! / r.tokens)) * 1000).toFixed(0)} vs ${(median(floor.map((r) => r.cpuMs! / r.tokens)) * 1000).toFixed(0)} µs; ${CONTEXT}-token context, ${THREADS} thread`,
  });
  const vf = median(app.map((r) => r.firstMs));
  const ff = median(floor.map((r) => r.firstMs));
  report({
    figure: `built-in engine: send to first token, new chat (median of ${ROUNDS})`,
    value: Number(vf.toFixed(1)),
    unit: 'ms',
    floor: Number(ff.toFixed(1)),
    ratio: Number((vf / ff).toFixed(2)),
    note: `runs ${app.map((r) => r.firstMs.toFixed(0)).join('/')} vs ${floor.map((r) => r.firstMs.toFixed(0)).join('/')} ms; a ${floor[0]!.promptTokens}-token prompt`,
  });
});
