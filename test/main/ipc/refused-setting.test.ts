/**
 * Main's refusal of a Settings save names the setting it is about, beside its sentence: the page marked the field it
 * guessed from the field changed or the words, and with two fields changed it could mark the wrong one (or none).
 * Every check main makes on a setting, through the dispatcher as a Save reaches it: the schema's and the handlers'.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SettingsStore } from '../../../src/main/db/settings-store';
import { createDispatcher, type InvokeHandlers } from '../../../src/main/ipc/dispatch';
import { createModelHandlers } from '../../../src/main/models/model-handlers';
import { INVOKE_CHANNELS, type IpcResult, type SettingName } from '../../../src/shared/ipc';
import { memoryDb } from '../db/helpers';

const dir = mkdtempSync(join(tmpdir(), 'firebrand-refused-setting-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function dispatcher() {
  const settings = new SettingsStore(memoryDb());
  const models = createModelHandlers({
    db: memoryDb(),
    // Nothing here asks a server or a GPU: each call is refused before it would.
    baseUrl: () => 'http://127.0.0.1:9',
    emit: () => {},
    newId: () => 'id',
    log: () => {},
    probeHost: { platform: 'linux', run: async () => ({ ok: false, stdout: '' }), readFile: async () => null, listDir: async () => [] },
  });
  const none = () => {
    throw new Error('not used');
  };
  const table = Object.fromEntries(INVOKE_CHANNELS.map((c) => [c, none])) as unknown as InvokeHandlers;
  return createDispatcher({ ...table, 'settings:update': (patch) => settings.update(patch), 'gpu:set-override': models.handlers['gpu:set-override'] }, () => {});
}

/** The refusal's setting and words; the call must have been refused. */
function refusal(result: IpcResult<unknown>): { setting: SettingName | undefined; message: string } {
  if (result.ok) throw new Error('the call was not refused');
  return { setting: result.error.setting, message: result.error.message };
}

describe('main refusing a setting', () => {
  const file = join(dir, 'a-file');
  writeFileSync(file, 'not a folder\n');
  const cases: [string, string, unknown, SettingName][] = [
    // settings:update's schema
    ['settings:update', 'an address too long', { ollamaUrl: `http://${'a'.repeat(2000)}` }, 'ollamaUrl'],
    ['settings:update', 'an address without http://', { ollamaUrl: 'ftp://box' }, 'ollamaUrl'],
    ['settings:update', 'an empty address', { ollamaUrl: '' }, 'ollamaUrl'],
    ['settings:update', 'too many idle minutes', { builtinIdleMinutes: 20_000 }, 'builtinIdleMinutes'],
    ['settings:update', 'idle minutes not whole', { builtinIdleMinutes: 2.5 }, 'builtinIdleMinutes'],
    ['settings:update', 'a models folder too long', { modelsDir: `/${'m'.repeat(4000)}` }, 'modelsDir'],
    ['settings:update', 'an empty models folder', { modelsDir: '' }, 'modelsDir'],
    ['settings:update', 'an unknown theme', { theme: 'sepia' }, 'theme'],
    ['settings:update', 'a default model too long', { defaultChatModel: 'm'.repeat(301) }, 'defaultChatModel'],
    ['settings:update', 'a model picked last too long', { defaultModel: 'm'.repeat(301) }, 'defaultModel'],
    ['settings:update', 'an active connection that is no id', { activeConnectionId: 42 }, 'activeConnectionId'],
    // settings:update's own checks (SettingsStore)
    ['settings:update', 'an address that does not parse', { ollamaUrl: 'http://127.0.0.1:99999' }, 'ollamaUrl'],
    ['settings:update', 'an address with a password in it', { ollamaUrl: 'http://me:secret@box:11434' }, 'ollamaUrl'],
    ['settings:update', 'a models folder that is not a full path', { modelsDir: 'models' }, 'modelsDir'],
    ['settings:update', 'a models folder that is not there', { modelsDir: join(dir, 'modles') }, 'modelsDir'],
    ['settings:update', 'a models folder that is a file', { modelsDir: file }, 'modelsDir'],
    // gpu:set-override's schema and handler
    ['gpu:set-override', 'GPU memory of no size', { bytes: -1 }, 'gpuOverride'],
    ['gpu:set-override', 'GPU memory of a fraction of a byte', { bytes: 0.5 }, 'gpuOverride'],
    ['gpu:set-override', 'GPU memory too small to be one', { bytes: 1 }, 'gpuOverride'],
  ];

  it.each(cases)('%s: %s names the setting', async (channel, _what, payload, setting) => {
    const { setting: named, message } = refusal(await dispatcher().dispatch(channel, payload));
    expect(message).not.toBe('');
    expect(named).toBe(setting);
  });

  it('names the setting refused when the save changed others too, and none where it is no setting', async () => {
    const d = dispatcher();
    // The address is checked first and refused; the folder would have been accepted.
    expect(refusal(await d.dispatch('settings:update', { modelsDir: dir, ollamaUrl: `http://127.0.0.1:99999${dir}` })).setting).toBe('ollamaUrl');
    expect(refusal(await d.dispatch('settings:update', { theme: 'dark', builtinIdleMinutes: -1 })).setting).toBe('builtinIdleMinutes');
    // A key no setting has, and a payload that is no object: there is no field to mark.
    expect(refusal(await d.dispatch('settings:update', { colour: 'red' })).setting).toBeUndefined();
    expect(refusal(await d.dispatch('settings:update', 42)).setting).toBeUndefined();
  });
});
