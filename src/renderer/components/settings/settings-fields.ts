import type { SettingName } from '../../../shared/ipc';
import type { GpuReport } from '../../../shared/models';
import { formatBytes } from '../../format';

/**
 * The probe's note said after "Not found:": its first letter in lower case, as after any colon, and without its own
 * "GPU memory is unknown", which "Not found" says ("Not found: No GPU answered (…): GPU memory is unknown.").
 */
const notFoundNote = (note: string) => (note.charAt(0).toLowerCase() + note.slice(1)).replace(/:\s*GPU memory is unknown\.?$/i, '.');

/**
 * What Settings → GPU memory says under its field. The probe's note is shared with the Models screen, which points
 * to Settings; here the user is already at the field, so it says to type the memory in it (user-eyes pass: it said
 * "Set it in Settings → GPU memory" in Settings → GPU memory).
 */
export function gpuFoundLine(gpu: GpuReport | null): string {
  const found =
    gpu === null
      ? 'Looking for GPUs…'
      : gpu.source === 'override'
        ? `Set by hand: ${formatBytes(gpu.usableBytes)}. Empty the field and save to find it out again.`
        : gpu.usableBytes !== null
          ? `Found ${formatBytes(gpu.usableBytes)} (${gpu.source}${gpu.devices.length > 0 ? `: ${gpu.devices.map((d) => d.name).join(', ')}` : ''}).`
          : `Not found: ${notFoundNote(gpu.notes[0] ?? 'no GPU answered.')} Type it in this field, in GiB.`;
  return `${found} Every model’s context window is worked out from it (a “24 GB” card holds 24 GiB).`;
}

/**
 * The idle minutes as typed: a whole number, 0 for "never unload". An emptied field is refused with a message (it
 * was read as 0 and saved as "never unload", silently changing what the setting does); Save then keeps the dialog
 * open with what was typed.
 */
export function idleMinutesFrom(typed: string): { minutes: number } | { problem: string } {
  if (typed.trim() === '') return { problem: 'Idle minutes is empty: enter how many idle minutes before a built-in model is unloaded, such as 10 (0 keeps models loaded).' };
  const minutes = Number(typed);
  if (!Number.isInteger(minutes) || minutes < 0) return { problem: 'Idle minutes is a whole number (0 keeps models loaded).' };
  return { minutes };
}

/** The Settings fields a Save can be refused for. */
export type RefusableField = 'url' | 'gpu' | 'modelsDir' | 'idle';

/** The field each setting main may name in a refusal is typed in; the others (theme, default model) have none to mark. */
const FIELD_OF_SETTING: Partial<Record<SettingName, RefusableField>> = {
  ollamaUrl: 'url',
  modelsDir: 'modelsDir',
  builtinIdleMinutes: 'idle',
  gpuOverride: 'gpu',
};

/**
 * Which field main refused a Save for, so that the field is marked (aria-invalid, its message as its description)
 * and takes the focus: the setting main's refusal names, first. A refusal that names none (from a main older than
 * the page: serve mode can be a build behind) is guessed at: the field the patch changed, where it changed one;
 * otherwise the one the sentence names (a folder's refusal names the path typed). Null where none can be told.
 */
export function refusedField(
  refusal: { message: string; setting?: SettingName | undefined },
  patch: { ollamaUrl?: unknown; modelsDir?: unknown; builtinIdleMinutes?: unknown },
): RefusableField | null {
  if (refusal.setting !== undefined) return FIELD_OF_SETTING[refusal.setting] ?? null;
  const { message } = refusal;
  const changed: RefusableField[] = [
    ...(patch.ollamaUrl !== undefined ? (['url'] as const) : []),
    ...(patch.modelsDir !== undefined ? (['modelsDir'] as const) : []),
    ...(patch.builtinIdleMinutes !== undefined ? (['idle'] as const) : []),
  ];
  if (changed.length <= 1) return changed[0] ?? null;
  const folder = typeof patch.modelsDir === 'string' ? patch.modelsDir.slice(0, 200) : '';
  if (changed.includes('modelsDir') && (/models folder/i.test(message) || (folder !== '' && message.includes(folder)))) return 'modelsDir';
  if (/idle minutes/i.test(message)) return 'idle';
  if (/address|URL/.test(message)) return 'url';
  return null;
}
