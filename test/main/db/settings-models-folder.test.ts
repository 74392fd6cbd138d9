/**
 * Settings audit #7: the models folder was checked only for being a full path. A file was saved (every list then
 * failed with EEXIST, "Something went wrong inside Firebrand" with the built-in engine active) and a misspelt folder
 * was made, hiding the user's models behind "No GGUF models yet".
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SettingsStore } from '../../../src/main/db/settings-store';
import { scanModelsFolder } from '../../../src/main/library/models-folder';
import { memoryDb } from './helpers';

const dir = mkdtempSync(join(tmpdir(), 'firebrand-settings-folder-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the models folder chosen in Settings', () => {
  it('is refused when it is a file, and nothing of the patch is saved', () => {
    const file = join(dir, 'hostname');
    writeFileSync(file, 'box\n');
    const settings = new SettingsStore(memoryDb());
    expect(() => settings.update({ modelsDir: file, theme: 'dark' })).toThrow(`${file} is a file, not a folder: choose the folder that holds your .gguf files.`);
    expect(() => settings.update({ modelsDir: join(file, 'models') })).toThrow(`${join(file, 'models')} is not a folder: part of the path is a file.`);
    expect(settings.get()).toMatchObject({ modelsDir: null, theme: 'system' });
  });

  it('is refused, not made, when it is not there', () => {
    const missing = join(dir, 'modles');
    const settings = new SettingsStore(memoryDb());
    expect(() => settings.update({ modelsDir: missing })).toThrow(`There is no folder at ${missing}. Check the spelling, or create the folder first, then save again.`);
    expect(settings.get().modelsDir).toBeNull();
  });

  it('is saved when it is a folder; emptying it goes back to the default', () => {
    const models = join(dir, 'models');
    mkdirSync(models);
    const settings = new SettingsStore(memoryDb());
    expect(settings.update({ modelsDir: models }).modelsDir).toBe(models);
    expect(settings.update({ modelsDir: null }).modelsDir).toBeNull();
  });

  it('given on the command line, is made when missing, as it was asked for by name', async () => {
    const named = join(dir, 'new', 'models');
    const settings = new SettingsStore(memoryDb());
    expect(settings.useForThisRun({ modelsDir: named })).toBe(true);
    expect(settings.get().modelsDir).toBe(named);
    await scanModelsFolder(named);
    expect(() => settings.update({ modelsDir: named })).not.toThrow();
  });

  it('saved as a file before this check, is said to be a file when listed, not an internal EEXIST', async () => {
    const file = join(dir, 'passwd');
    writeFileSync(file, 'root\n');
    await expect(scanModelsFolder(file)).rejects.toMatchObject({ name: 'UserFacingError', message: `The models folder ${file} is a file, not a folder: choose a folder in Settings.` });
  });
});
