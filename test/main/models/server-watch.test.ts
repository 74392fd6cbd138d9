/** Issue 17: a server that comes back, goes away or changes its models is noticed without a reload, with backoff. */
import { describe, expect, it } from 'vitest';
import type { ModelsChanged } from '../../../src/shared/models';
import { ServerWatch, type ServerLook } from '../../../src/main/models/server-watch';

function harness(script: (ServerLook | Error)[], opts: { emitThrows?: number } = {}) {
  const emitted: ModelsChanged[] = [];
  const logged: string[] = [];
  let throws = opts.emitThrows ?? 0;
  const delays: number[] = [];
  let pending: (() => void) | null = null;
  const watch = new ServerWatch({
    look: () => {
      const next = script.shift();
      if (!next) return Promise.resolve(null);
      return next instanceof Error ? Promise.reject(next) : Promise.resolve(next);
    },
    emit: (c) => {
      if (throws > 0) {
        throws--;
        throw new Error('no page to tell');
      }
      emitted.push(c);
    },
    log: (m) => logged.push(m),
    setTimer: (fn, ms) => {
      delays.push(ms);
      pending = fn;
      return 1;
    },
    clearTimer: () => {
      pending = null;
    },
  });
  /** Runs the scheduled look and waits until the next one is scheduled. */
  const step = async () => {
    const fn = pending;
    pending = null;
    fn?.();
    await new Promise((r) => setTimeout(r, 0));
  };
  return { watch, emitted, delays, step, logged };
}

const up = (signature: string): ServerLook => ({ connectionId: 'ollama', signature });

describe('ServerWatch', () => {
  it('says when the server comes back and when its models change, and nothing while they stay the same', async () => {
    const h = harness([new Error('Cannot reach Ollama'), new Error('Cannot reach Ollama'), up('a'), up('a'), up('a\nb'), up('b')]);
    h.watch.start();
    for (let i = 0; i < 6; i++) await h.step();
    expect(h.emitted).toEqual([
      { connectionId: 'ollama', reachable: true, error: null },
      { connectionId: 'ollama', reachable: true, error: null },
      { connectionId: 'ollama', reachable: true, error: null },
    ]);
  });

  it('says when a server that answered goes away, once', async () => {
    const h = harness([up('a'), new Error('gone'), new Error('gone')]);
    h.watch.start();
    for (let i = 0; i < 3; i++) await h.step();
    expect(h.emitted).toEqual([{ connectionId: 'ollama', reachable: false, error: 'gone' }]);
  });

  it('looks again sooner after a failure, then less often, and at the steady pace once it answers', async () => {
    const h = harness([new Error('x'), new Error('x'), new Error('x'), new Error('x'), new Error('x'), up('a')]);
    h.watch.start();
    for (let i = 0; i < 6; i++) await h.step();
    expect(h.delays).toEqual([0, 1000, 2000, 4000, 5000, 5000, 5000]);
  });
});

describe('ServerWatch told of a failure it did not see', () => {
  it('says the server is back when the next look finds it, even with the same models as before', async () => {
    const h = harness([up('a'), up('a')]);
    h.watch.start();
    await h.step();
    h.watch.sawFailure('ollama', 'the renderer could not list the models');
    await h.step();
    expect(h.emitted).toEqual([{ connectionId: 'ollama', reachable: true, error: null }]);
  });
});

describe('ServerWatch told of the lists handed out', () => {
  it('says a change when a list handed out since the last look differs from the next look, though the looks agree', async () => {
    const h = harness([up('a'), up('a'), up('a'), up('a')]);
    h.watch.start();
    await h.step();
    // A page read the list as the look saw it: nothing to say.
    h.watch.heard(up('a'));
    await h.step();
    expect(h.emitted).toEqual([]);
    // A page read it with a file the looks never saw (copied in and removed between them): it is told.
    h.watch.heard(up('a\nadded-later.gguf'));
    await h.step();
    expect(h.emitted).toEqual([{ connectionId: 'ollama', reachable: true, error: null }]);
    // Once only: the pages read the list again on that change.
    await h.step();
    expect(h.emitted).toHaveLength(1);
  });
});

describe('ServerWatch whose telling throws', () => {
  it('goes on looking, says the change it could not say at the next look, and logs once', async () => {
    const h = harness([up('a'), up('a'), up('a\nb'), up('a\nb'), up('b'), up('b')], { emitThrows: 2 });
    h.watch.start();
    await h.step();
    await h.step();
    // b pulled: telling it throws, twice; the looks go on and the third says it.
    await h.step();
    await h.step();
    expect(h.emitted).toEqual([]);
    await h.step();
    expect(h.emitted).toEqual([{ connectionId: 'ollama', reachable: true, error: null }]);
    await h.step();
    expect(h.emitted).toHaveLength(1);
    expect(h.delays).toEqual([0, 5000, 5000, 5000, 5000, 5000, 5000]);
    expect(h.logged).toHaveLength(1);
    expect(h.logged[0]).toContain('no page to tell');
  });

  it('goes on looking when the server going away cannot be told, and says it at the next failed look', async () => {
    const h = harness([up('a'), new Error('gone'), new Error('gone'), new Error('gone')], { emitThrows: 1 });
    h.watch.start();
    for (let i = 0; i < 4; i++) await h.step();
    expect(h.emitted).toEqual([{ connectionId: 'ollama', reachable: false, error: 'gone' }]);
    expect(h.delays.length).toBe(5);
  });
});
