import { copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pathInFolder } from '../../../src/main/library/models-folder';
import { createServices, type Services } from '../../../src/main/services';
import { generateScriptedModel } from '../../support/scripted-gguf/generate';
import { SCRIPTS } from '../../support/scripted-gguf/scripts';

let dir: string;
let services: Services;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'firebrand-lib-'));
  // No engine needed: the library reads files, it never runs them.
  services = createServices({ dataDir: join(dir, 'data'), modelsDir: join(dir, 'models'), log: () => {} });
});
afterEach(() => {
  services.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the model library', () => {
  it('adds a GGUF by copy or by link, and refuses a file that is not a model with the reason', async () => {
    const source = generateScriptedModel(SCRIPTS.plain);
    const h = services.handlers;
    const copied = await h['library:add-file']({ path: source, mode: 'copy' });
    expect(copied).toMatchObject({ file: expect.stringMatching(/^plain-.*\.gguf$/), state: 'usable' });
    expect(lstatSync(copied.path).nlink).toBe(1);
    // Another model: the same one again would be refused (it is there already, as the copy).
    const linked = await h['library:add-file']({ path: generateScriptedModel(SCRIPTS.reasoning), mode: 'link' });
    expect(linked.file).not.toBe(copied.file);
    const l = lstatSync(linked.path);
    expect(l.isSymbolicLink() || l.nlink > 1).toBe(true);
    const notes = join(dir, 'notes.gguf');
    writeFileSync(notes, 'hello');
    await expect(h['library:add-file']({ path: notes, mode: 'copy' })).rejects.toThrow(/notes\.gguf was not added: Not a GGUF file/);
    expect((await h['library:list']({})).map((e) => e.file)).toEqual([copied.file, linked.file].sort());
  });

  it('says a GGUF is already in the models folder instead of copying it again (models audit #5)', async () => {
    const h = services.handlers;
    const added = await h['library:add-file']({ path: generateScriptedModel(SCRIPTS.plain), mode: 'copy' });
    // Before, this made a second, byte-identical copy beside it (plain-…-2.gguf).
    await expect(h['library:add-file']({ path: added.path, mode: 'copy' })).rejects.toThrow(`${added.file} is already in the models folder, so nothing was added.`);
    const outside = join(dir, 'outside.gguf');
    writeFileSync(outside, readFileSync(added.path));
    // Linked in, then renamed there: the folder has it still, under its new name.
    await h['library:add-file']({ path: outside, mode: 'link' });
    await h['library:rename']({ file: 'outside.gguf', to: 'renamed.gguf' });
    await expect(h['library:add-file']({ path: outside, mode: 'copy' })).rejects.toThrow('outside.gguf is already in the models folder (as renamed.gguf), so nothing was added.');
    expect((await h['library:list']({})).map((e) => e.file)).toEqual([added.file, 'renamed.gguf'].sort());
  });

  it('says an outside GGUF copied in before is there already, instead of copying it a second time', async () => {
    const h = services.handlers;
    const outside = join(dir, 'weather.gguf');
    copyFileSync(generateScriptedModel(SCRIPTS.plain), outside);
    const first = await h['library:add-file']({ path: outside, mode: 'copy' });
    // Before, this made weather-2.gguf: a second copy of a model that may be many GB.
    await expect(h['library:add-file']({ path: outside, mode: 'copy' })).rejects.toThrow('weather.gguf is already in the models folder, so nothing was added.');
    await h['library:rename']({ file: first.file, to: 'forecast.gguf' });
    await expect(h['library:add-file']({ path: outside, mode: 'link' })).rejects.toThrow('weather.gguf is already in the models folder (as forecast.gguf), so nothing was added.');
    // A different model of the same size and time (one byte in its weights changed) is added.
    const other = join(dir, 'other', 'weather.gguf');
    mkdirSync(join(dir, 'other'));
    const bytes = readFileSync(outside);
    bytes.writeUInt8(bytes.readUInt8(bytes.length - 10) ^ 0xff, bytes.length - 10);
    writeFileSync(other, bytes);
    const t = statSync(outside);
    utimesSync(other, t.atime, t.mtime);
    expect((await h['library:add-file']({ path: other, mode: 'copy' })).file).toBe('weather.gguf');
    expect((await h['library:list']({})).map((e) => e.file)).toEqual(['forecast.gguf', 'weather.gguf']);
  });

  it('adds a GGUF whose path was pasted in quotes, as a file:// URL or escaped by a shell, where it said "There is no file at …" (first-run hunt)', async () => {
    const folder = join(dir, 'My Downloads');
    mkdirSync(folder);
    const h = services.handlers;
    const add = async (name: string, typed: (path: string) => string) => {
      const path = join(folder, name);
      copyFileSync(generateScriptedModel(SCRIPTS.plain), path);
      const added = await h['library:add-file']({ path: typed(path), mode: 'link' });
      expect(added.file).toBe(name);
      rmSync(added.path);
    };
    await add('quoted.gguf', (p) => `"${p}"`);
    await add('single-quoted.gguf', (p) => `'${p}' `);
    await add('url.gguf', (p) => pathToFileURL(p).href);
    await add('escaped.gguf', (p) => p.replaceAll(' ', '\\ '));
    // A path that names nothing is said to, as typed.
    await expect(h['library:add-file']({ path: `"${join(folder, 'none.gguf')}"`, mode: 'copy' })).rejects.toThrow(`There is no file at "${join(folder, 'none.gguf')}".`);
  });

  it('says a folder given as the file to add is a folder (models audit #7)', async () => {
    await expect(services.handlers['library:add-file']({ path: dir, mode: 'copy' })).rejects.toThrow(
      `${dir} is a folder, not a file: type the path of a .gguf file in it, or choose it as the models folder in Settings.`,
    );
  });

  it('renames and deletes a model, and lists subfolders and vision projectors', async () => {
    const models = join(dir, 'models');
    mkdirSync(join(models, 'qwen'), { recursive: true });
    const bytes = (await import('node:fs')).readFileSync(generateScriptedModel(SCRIPTS.plain));
    writeFileSync(join(models, 'qwen', 'chat.gguf'), bytes);
    writeFileSync(join(models, 'qwen', 'mmproj-f16.gguf'), bytes);
    writeFileSync(join(models, 'big-00002-of-00002.gguf'), bytes);
    const h = services.handlers;
    const listed = await h['library:list']({});
    expect(listed.map((e) => [e.file, e.vision, e.mmproj])).toEqual([['qwen/chat.gguf', true, 'qwen/mmproj-f16.gguf']]);
    const renamed = await h['library:rename']({ file: 'qwen/chat.gguf', to: 'qwen/assistant' });
    expect(renamed).toMatchObject({ file: 'qwen/assistant.gguf', state: 'usable' });
    expect(existsSync(join(models, 'qwen', 'chat.gguf'))).toBe(false);
    await expect(h['library:rename']({ file: 'qwen/assistant.gguf', to: '../outside' })).rejects.toThrow(/file name/);
    expect(await h['library:delete']({ file: 'qwen/assistant.gguf' })).toEqual({ deleted: true });
    expect(existsSync(join(models, 'qwen', 'assistant.gguf'))).toBe(false);
    expect(await h['library:list']({})).toEqual([]);
  });

  it('carries the aliases of a renamed model (and its kept window) to the new name', async () => {
    const models = join(dir, 'models');
    mkdirSync(models, { recursive: true });
    writeFileSync(join(models, 'weather.gguf'), (await import('node:fs')).readFileSync(generateScriptedModel(SCRIPTS.plain)));
    const h = services.handlers;
    const base = { systemPrompt: 'You report the weather.', parameters: {}, thinkMode: 'off' as const, contextWindow: 2048 };
    const mine = await h['aliases:create']({ ...base, name: 'forecaster', connectionId: 'builtin', model: 'weather.gguf' });
    // An alias of a model that is merely called the same on a server is not the file's.
    const ollama = await h['aliases:create']({ ...base, name: 'elsewhere', connectionId: 'ollama', model: 'weather.gguf' });
    await h['library:set-context']({ file: 'weather.gguf', contextWindow: 3072 });
    await h['library:rename']({ file: 'weather.gguf', to: 'forecast-v2' });
    const after = await h['aliases:list']({});
    expect(after.find((a) => a.id === mine.id)).toMatchObject({ model: 'forecast-v2.gguf', systemPrompt: 'You report the weather.', contextWindow: 2048 });
    expect(after.find((a) => a.id === ollama.id)).toMatchObject({ model: 'weather.gguf' });
    expect((await h['library:recommend-context']({ file: 'forecast-v2.gguf' })).stored).toMatchObject({ contextWindow: 3072 });
  });

  it('never reaches outside the models folder', async () => {
    expect(() => pathInFolder('/m', '../etc/passwd')).toThrow(/not a file in the models folder/);
    expect(() => pathInFolder('/m', '/etc/passwd')).toThrow(/not a file in the models folder/);
    expect(pathInFolder('/m', 'a/b.gguf')).toBe('/m/a/b.gguf');
    await expect(services.handlers['library:delete']({ file: '../data/firebrand.db' })).rejects.toThrow(/not a file in the models folder/);
    expect(existsSync(join(dir, 'data', 'firebrand.db'))).toBe(true);
  });

  it('keeps the folder chosen in Settings; a relative folder is refused', async () => {
    const h = services.handlers;
    expect((await h['settings:get']({})).modelsDir).toBe(join(dir, 'models'));
    expect(() => h['settings:update']({ modelsDir: 'models' })).toThrow(/full path/);
    const other = join(dir, 'elsewhere');
    // Settings takes a folder that is there (settings audit #7); it makes none.
    expect(() => h['settings:update']({ modelsDir: other })).toThrow(/There is no folder at/);
    mkdirSync(other);
    await h['settings:update']({ modelsDir: other });
    expect((await h['builtin:status']({})).modelsDir).toBe(other);
    expect((await h['connections:list']({})).find((c) => c.kind === 'builtin')?.baseUrl).toBe(other);
  });
});
