/**
 * What the library tells every page (tabs round): a built-in model's window kept in one tab reaches the other tabs'
 * meters (`models:windows-changed`; before, only `library:changed`, which a page follows once its Models screen was
 * opened), and a file renamed in one tab re-points its aliases in the others' lists (`aliases:changed`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServices, type Services } from '../../../src/main/services';
import type { Alias } from '../../../src/shared/models';
import { generateScriptedModel } from '../../support/scripted-gguf/generate';
import { SCRIPTS } from '../../support/scripted-gguf/scripts';

let dir: string;
let services: Services;
let events: { channel: string; payload: unknown }[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'firebrand-lib-events-'));
  services = createServices({ dataDir: join(dir, 'data'), modelsDir: join(dir, 'models'), log: () => {} });
  events = [];
  services.hub.connect((channel, payload) => events.push({ channel, payload }));
});
afterEach(() => {
  services.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the library, told to every page', () => {
  it('says a built-in window was kept, and an alias re-pointed by a rename', async () => {
    const h = services.handlers;
    const { file } = await h['library:add-file']({ path: generateScriptedModel(SCRIPTS.plain), mode: 'copy' });
    await h['aliases:create']({ name: 'plainly', connectionId: 'builtin', model: file, systemPrompt: '', parameters: {}, thinkMode: 'off', contextWindow: null });
    events.length = 0;
    await h['library:set-context']({ file, contextWindow: 2048 });
    expect(events.map((e) => e.channel)).toContain('models:windows-changed');
    events.length = 0;
    await h['library:rename']({ file, to: 'renamed' });
    const told = events.filter((e) => e.channel === 'aliases:changed').map((e) => (e.payload as { aliases: Alias[] }).aliases.map((a) => a.model));
    expect(told).toEqual([['renamed.gguf']]);
  });
});
