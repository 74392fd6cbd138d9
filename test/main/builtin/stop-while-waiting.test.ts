/**
 * Round 7, engine #1: the engine runs one generation at a time. Stop on an answer waiting behind another (on another
 * model, say) took effect only once that other answer ended, minutes later on a CPU: the waiting answer's stop was
 * heard only when its turn came. It now ends at once, and the answers behind it still wait for the running one.
 * The generation itself is a stand-in the test ends, so the order is the test's, not a race's.
 */
import { describe, expect, it } from 'vitest';
import type { EngineOutput } from '../../../src/main/builtin/event-coalescer';
import { EngineRuntime, type GenerateInput } from '../../../src/main/builtin/engine-runtime';

type GenerateNow = (input: GenerateInput, out: EngineOutput, signal: AbortSignal) => Promise<void>;

const input = (prompt: string): GenerateInput => ({ model: { path: `/models/${prompt}.gguf`, contextSize: 4096 }, prompt, addBos: false, sampling: {}, maxTokens: null });
const out = {} as EngineOutput;

describe('a generation waiting behind another', () => {
  it('ends at once when stopped, while the one running goes on and the next still waits for it', async () => {
    const runtime = new EngineRuntime(() => undefined);
    const ran: string[] = [];
    let endFirst: () => void = () => undefined;
    // Only the order and the stops are under test: what runs is the test's.
    (runtime as unknown as { generateNow: GenerateNow }).generateNow = async (i, _out, signal) => {
      ran.push(signal.aborted ? `${i.prompt} (stopped)` : i.prompt);
      if (i.prompt === 'x') await new Promise<void>((r) => (endFirst = r));
    };
    const stop = new AbortController();
    const x = runtime.generate(input('x'), out, new AbortController().signal);
    const y = runtime.generate(input('y'), out, stop.signal);
    const z = runtime.generate(input('z'), out, new AbortController().signal);
    let zEnded = false;
    void z.then(() => (zEnded = true));
    await expect.poll(() => ran).toEqual(['x']);
    stop.abort();
    await y;
    expect(ran).toEqual(['x', 'y (stopped)']);
    expect(zEnded).toBe(false);
    endFirst();
    await Promise.all([x, z]);
    expect(ran).toEqual(['x', 'y (stopped)', 'z']);
  });
});
