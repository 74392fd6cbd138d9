/**
 * Settings → GPU memory and idle minutes (user-eyes pass): with no GPU found, the note under the GPU memory field
 * said "Set it in Settings → GPU memory", where the user already was; it says to type it in the field, and the
 * Models screen still points to Settings. An emptied idle-minutes field was saved as 0, "never unload", silently
 * changing what the setting does; it is refused with a message that says what to enter.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { probeLocalGpus } from '../../src/main/gpu/probe-gpu';
import { GPU_UNKNOWN_REASON } from '../../src/main/models/model-service';
import { ContextPanel } from '../../src/renderer/components/models/ContextPanel';
import { unknownGpuLine } from '../../src/renderer/components/models/gpu-line';
import { gpuFoundLine, idleMinutesFrom, refusedField } from '../../src/renderer/components/settings/settings-fields';
import type { ContextAdvice } from '../../src/shared/models';

// A server render reads no store: the Models screen's panel is given the advice as its store would hold it.
const shown = vi.hoisted(() => ({ advice: null as ContextAdvice | null }));
vi.mock('../../src/renderer/store/models-slice', async (original) => ({
  ...(await original<object>()),
  useModelsStore: <T,>(pick: (s: { advice: ContextAdvice | null }) => T) => pick(shown),
}));

/** A Linux machine where no GPU tool answers and /sys has no card: the probe's "unknown". */
const noGpu = () =>
  probeLocalGpus({ platform: 'linux', timeoutMs: 50, run: () => Promise.resolve({ ok: false, stdout: '' }), readFile: () => Promise.resolve(null), listDir: () => Promise.resolve([]) });

describe('the GPU memory note, where it is shown', () => {
  it('in Settings → GPU memory, says to type it in the field, not to go to Settings', async () => {
    const line = gpuFoundLine(await noGpu());
    // One voice: lower case after the colon, and "unknown" not said again after "Not found".
    expect(line).toContain('Not found: no GPU answered (nvidia-smi, rocm-smi, sysfs). Type it in this field, in GiB.');
    expect(line).toContain('Type it in this field, in GiB.');
    expect(line).not.toMatch(/Settings/);
  });

  it('on the Models screen, still points to Settings → GPU memory, once: on its GPU line, Details pointing there', async () => {
    const gpu = await noGpu();
    const line = unknownGpuLine(gpu) ?? '';
    expect(line).toContain('set the memory in Settings → GPU memory');
    expect(line).toContain('No GPU answered');
    shown.advice = { model: 'm', gpu, weightsBytes: null, recommendation: null, reason: GPU_UNKNOWN_REASON, stored: null };
    const said = renderToStaticMarkup(<ContextPanel model="m" />).replace(/<[^>]+>/g, ' ');
    expect(said).toContain('No window is worked out without the GPU memory: see GPU memory above.');
    expect(said).not.toMatch(/GPU memory is unknown|No GPU answered/);
  });
});

describe('idle minutes as typed', () => {
  it('refuses an emptied field with a message, rather than saving "never unload"', () => {
    for (const typed of ['', '   ']) {
      const read = idleMinutesFrom(typed);
      expect(read).not.toHaveProperty('minutes');
      expect(read).toEqual({ problem: expect.stringContaining('Idle minutes is empty: enter how many idle minutes') });
    }
  });

  it('keeps 0 as "never", a whole number as it is, and refuses what is not one', () => {
    expect(idleMinutesFrom('0')).toEqual({ minutes: 0 });
    expect(idleMinutesFrom(' 15 ')).toEqual({ minutes: 15 });
    expect(idleMinutesFrom('2.5')).toEqual({ problem: 'Idle minutes is a whole number (0 keeps models loaded).' });
    expect(idleMinutesFrom('-1')).toEqual({ problem: 'Idle minutes is a whole number (0 keeps models loaded).' });
  });
});

// Main's refusal names the setting it is about; one that names none (an older main) is guessed at (a11y pass).
describe('the field a refused Save is about', () => {
  const folder = '/home/me/modles';
  const all = { ollamaUrl: 'http://localhost:11434', modelsDir: folder, builtinIdleMinutes: 20000 };
  it('is the field of the setting main names, whatever its words and whatever else the Save changed', () => {
    // The sentence names the folder (typed into the address too): the words would pick the folder.
    const url = { ...all, ollamaUrl: `http://127.0.0.1:99999${folder}` };
    expect(refusedField({ message: `“http://127.0.0.1:99999${folder}” is not a valid address.`, setting: 'ollamaUrl' }, url)).toBe('url');
    expect(refusedField({ message: `“http://127.0.0.1:99999${folder}” is not a valid address.` }, url)).toBe('modelsDir');
    expect(refusedField({ message: 'The models dir is too long.', setting: 'modelsDir' }, all)).toBe('modelsDir');
    expect(refusedField({ message: 'Anything at all.', setting: 'builtinIdleMinutes' }, all)).toBe('idle');
    expect(refusedField({ message: 'GPU memory set by hand must be at least 0.25 GiB.', setting: 'gpuOverride' }, {})).toBe('gpu');
    // A setting with no field to mark: none is marked, not a guess.
    expect(refusedField({ message: 'The theme must be one of: light, dark, system.', setting: 'theme' }, all)).toBeNull();
  });

  it('is, where main names none, the one the Save changed, where it changed one', () => {
    expect(refusedField({ message: 'There is no folder at /x.' }, { modelsDir: '/x' })).toBe('modelsDir');
    expect(refusedField({ message: 'Anything at all.' }, { builtinIdleMinutes: 20000 })).toBe('idle');
    expect(refusedField({ message: 'A server address needs a host.' }, { ollamaUrl: 'http://' })).toBe('url');
    expect(refusedField({ message: 'The disk is full.' }, {})).toBeNull();
  });

  it('is, where main names none, the one the sentence names, where the Save changed several', () => {
    expect(refusedField({ message: `There is no folder at ${folder}. Check the spelling, or create the folder first, then save again.` }, all)).toBe('modelsDir');
    expect(refusedField({ message: 'The models folder must be a full path (such as /home/me/models), not “modles”.' }, { ...all, modelsDir: 'modles' })).toBe('modelsDir');
    expect(refusedField({ message: 'The number of idle minutes before a built-in model is unloaded is out of range: it must be at most 10,080.' }, all)).toBe('idle');
    expect(refusedField({ message: '“http//x” is not a valid address. Use a full URL such as http://127.0.0.1:11434.' }, all)).toBe('url');
    expect(refusedField({ message: 'The request is malformed.' }, all)).toBeNull();
  });
});
