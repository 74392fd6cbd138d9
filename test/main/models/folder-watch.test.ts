/**
 * The built-in connection's list is the models folder, looked at every few seconds (server-watch.ts). A page can
 * read the folder between two looks (a download ended, a window was kept in Models: the picker reads its list
 * again). A GGUF copied in and removed between two looks was then shown by the page, yet both looks agreed, so
 * nothing told the page it was gone: it stayed in the picker for good (the built-in e2e test, on a busy machine:
 * the look that saw weather.gguf arrive came just before added-later.gguf was copied in, the page's re-read just
 * after).
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Services } from '../../../src/main/services';
import type { ModelsChanged } from '../../../src/shared/models';
import { watchedServices } from './watched-services';
import { generateScriptedModel } from '../../support/scripted-gguf/generate';
import { SCRIPTS } from '../../support/scripted-gguf/scripts';

let dir: string;
let modelsDir: string;
let services: Services;
let changes: ModelsChanged[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'firebrand-folder-watch-'));
  modelsDir = join(dir, 'models');
  mkdirSync(modelsDir, { recursive: true });
  copyFileSync(generateScriptedModel(SCRIPTS.plain), join(modelsDir, 'weather.gguf'));
  // Looks come only when asked (models:watch-now), so the test says when each is made.
  ({ services, changes } = watchedServices(dir, modelsDir));
});
afterEach(() => {
  services.close();
  rmSync(dir, { recursive: true, force: true });
});

const names = async () => (await services.handlers['models:list']({})).map((m) => m.name);

describe('the models folder, watched', () => {
  it('tells the pages a GGUF is gone that one of them listed, though the watch never saw it', async () => {
    const h = services.handlers;
    // Ollama away: the watch finds it so, then looks at the built-in connection once it is made active, and says so.
    await h['settings:update']({ ollamaUrl: 'http://127.0.0.1:9' });
    await expect(h['models:list']({})).rejects.toThrow();
    await h['settings:update']({ activeConnectionId: 'builtin' });
    // Asked again while none has come (a look under way when asked is not repeated): once one is told, no look is
    // under way, nor another asked for.
    await expect
      .poll(async () => {
        if (changes.length === 0) await h['models:watch-now']({});
        return changes.length;
      }, { timeout: 10_000 })
      .toBe(1);
    expect(changes[0]).toEqual({ connectionId: 'builtin', reachable: true, error: null });

    // Copied in after that look; a page reads its list (something else changed) and shows the file.
    copyFileSync(generateScriptedModel(SCRIPTS.plain), join(modelsDir, 'added-later.gguf'));
    expect(await names()).toEqual(['added-later.gguf', 'weather.gguf']);
    // Removed before the next look, which finds the folder as the last look did: the page must still be told.
    rmSync(join(modelsDir, 'added-later.gguf'));
    await h['models:watch-now']({});
    await expect.poll(() => changes.length, { timeout: 10_000 }).toBe(2);
    expect(changes[1]).toEqual({ connectionId: 'builtin', reachable: true, error: null });
    expect(await names()).toEqual(['weather.gguf']);
  });
});
