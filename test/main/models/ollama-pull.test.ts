import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PullTracker, pullModel, pullRefused } from '../../../src/main/models/ollama-pull';
import type { PullProgress } from '../../../src/shared/models';
import { startReplayServer, type ReplayServer } from '../../replay-server/replay-server';

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/ollama-models/${name}`, import.meta.url), 'utf8');
const PULL = fixture('pull-llama3.2-1b.ndjson');
const TOTAL = 1321082688 + 1429 + 7711 + 6016 + 96;
let replay: ReplayServer;

beforeAll(async () => {
  replay = await startReplayServer();
});
afterAll(async () => {
  await replay.close();
});

function pull(signal = new AbortController().signal) {
  const seen: PullProgress[] = [];
  const done = pullModel({ baseUrl: replay.url, model: 'llama3.2:1b', pullId: 'p1', signal, onProgress: (p) => seen.push(p), throttleMs: 0 });
  return { seen, done };
}

describe('pulling a model', () => {
  it('reports bytes and percent rising to 100, summed over layers, and ends done', async () => {
    replay.setRoutes([{ method: 'POST', path: '/api/pull', body: PULL, chunk: 'lines', delayMs: 15, headers: { 'content-type': 'application/x-ndjson' } }]);
    replay.requests.length = 0;
    const { seen, done } = pull();
    const last = await done;
    expect(last).toMatchObject({ state: 'done', percent: 100, completedBytes: TOTAL, totalBytes: TOTAL, status: 'success' });
    expect(JSON.parse(replay.requests[0]?.body ?? '{}')).toEqual({ model: 'llama3.2:1b', stream: true });
    const percents = seen.filter((p) => p.state === 'running' && p.percent !== null).map((p) => p.percent ?? 0);
    expect(percents.length).toBeGreaterThan(10);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(seen.some((p) => p.bytesPerSecond !== null && p.bytesPerSecond > 0 && p.etaSeconds !== null)).toBe(true);
  });

  it('reports how far a pull got when its lines pause after a burst, not where the burst began', async () => {
    // Ten lines at once, then nothing: the throttle sent the first and dropped the rest until a next line came.
    replay.setRoutes([{ method: 'POST', path: '/api/pull', body: PULL, chunk: 'lines', holdAfterChunks: 10 }]);
    const tracker = new PullTracker(() => 0);
    for (const line of PULL.split('\n').slice(0, 10)) tracker.apply(JSON.parse(line) as Record<string, unknown>);
    const reached = tracker.snapshot('p1', 'llama3.2:1b', 'running');
    expect(reached.completedBytes).toBeGreaterThan(0);
    const controller = new AbortController();
    const seen: PullProgress[] = [];
    const done = pullModel({ baseUrl: replay.url, model: 'llama3.2:1b', pullId: 'p1', signal: controller.signal, onProgress: (p) => seen.push(p), throttleMs: 200 });
    await expect.poll(() => seen.at(-1)?.completedBytes, { timeout: 5_000 }).toBe(reached.completedBytes);
    expect(seen.at(-1)).toMatchObject({ state: 'running', percent: reached.percent });
    controller.abort();
    expect((await done).state).toBe('cancelled');
    if (replay.held > 0) replay.release();
  });

  it('can be cancelled mid-pull', async () => {
    // Held after 10 lines and never let go: the pull is still running when it is cancelled, however busy the machine.
    replay.setRoutes([{ method: 'POST', path: '/api/pull', body: PULL, chunk: 'lines', delayMs: 50, holdAfterChunks: 10 }]);
    const controller = new AbortController();
    const { seen, done } = pull(controller.signal);
    await expect.poll(() => seen.filter((p) => (p.percent ?? 0) > 0).length).toBeGreaterThan(2);
    controller.abort();
    const last = await done;
    expect(last.state).toBe('cancelled');
    expect(last.percent ?? 100).toBeLessThan(100);
  });

  it('says what the server said when an error line arrives mid-pull', async () => {
    replay.setRoutes([{ method: 'POST', path: '/api/pull', body: fixture('pull-error-mid-pull.ndjson'), chunk: 'lines', delayMs: 5 }]);
    const last = await pull().done;
    expect(last.state).toBe('error');
    expect(last.error).toContain('no space left on device');
    expect(last.completedBytes).toBeGreaterThan(0);
  });

  it('says the stream broke when the server dies mid-pull, and that pulling again goes on from what Ollama kept', async () => {
    replay.setRoutes([{ method: 'POST', path: '/api/pull', body: PULL, chunk: 'lines', delayMs: 5, cutAfterBytes: 1500 }]);
    const last = await pull().done;
    expect(last.state).toBe('error');
    expect(last.completedBytes).toBeGreaterThan(0);
    expect(last.error).toMatch(/ Ollama keeps what arrived: Pull again goes on from there\.$/);
  });

  it('says of an unknown model that the name is what is wrong, and where to look (HTTP 500 with an error body)', async () => {
    // Before: "Pulling llama3.2:1b failed (500): pull model manifest: file does not exist", for a typo.
    replay.setRoutes([{ method: 'POST', path: '/api/pull', status: 500, body: '{"error":"pull model manifest: file does not exist"}' }]);
    const last = await pull().done;
    expect(last).toMatchObject({
      state: 'error',
      error:
        'Pulling llama3.2:1b failed: the Ollama library has no model by that name and tag. Check its spelling at ollama.com/library, such as llama3.2:1b. (Ollama said: pull model manifest: file does not exist.)',
    });
  });

  it('says the same of an unknown model refused in the stream, and of one from another registry without the library', () => {
    expect(pullRefused('lama3.2', 'pull model manifest: file does not exist', null, 'Desk GPU')).toBe(
      'Pulling lama3.2 failed on Desk GPU: the Ollama library has no model by that name and tag. Check its spelling at ollama.com/library, such as llama3.2:1b. (Desk GPU said: pull model manifest: file does not exist.)',
    );
    expect(pullRefused('hf.co/someone/nothing-GGUF', 'pull model manifest: file does not exist', 404)).toBe(
      'Pulling hf.co/someone/nothing-GGUF failed: its registry has no model by that name and tag. Check its spelling. (Ollama said: pull model manifest: file does not exist.)',
    );
    // Other refusals keep Ollama's words.
    expect(pullRefused('llama3.2:1b', 'no space left on device', null)).toBe('Pulling llama3.2:1b failed: no space left on device');
  });

  it("says each step in plain words, not Ollama's layer digests (\"pulling 74701a8c35f6\")", () => {
    const tracker = new PullTracker(() => 0);
    const said: string[] = [];
    for (const line of PULL.split('\n').filter(Boolean)) {
      tracker.apply(JSON.parse(line) as Record<string, unknown>);
      if (said.at(-1) !== tracker.status) said.push(tracker.status);
    }
    expect(said).toEqual([
      'Reading the model’s list of parts',
      'Downloading part 1',
      'Downloading part 2',
      'Downloading part 3',
      'Downloading part 4',
      'Downloading part 5',
      'Verifying the download',
      'Writing the manifest',
      'success',
    ]);
    expect(said.join(' ')).not.toMatch(/[0-9a-f]{12}/);
  });

  it('a resumed pull starting at 80% does not count what was already there as speed', () => {
    let t = 0;
    const tracker = new PullTracker(() => t);
    const digest = 'sha256:aa';
    tracker.apply({ status: 'pulling aa', digest, total: 1000, completed: 800 });
    t = 1000;
    tracker.apply({ status: 'pulling aa', digest, total: 1000, completed: 900 });
    const p = tracker.snapshot('x', 'm', 'running');
    expect(p.bytesPerSecond).toBe(100);
    expect(p.etaSeconds).toBe(1);
    expect(p.percent).toBe(90);
  });
});
