/**
 * The settings as this page holds them: saved here, or saved in another window or tab and taken from main's event.
 */
import { FirebrandError, type SettingName, type Settings } from '../../shared/ipc';
import { firebrand } from '../firebrand';
import { fail, useStore } from './app-state';
import { errorMessage } from './errors';
import { loadConnections, useConnectionsStore } from './connections-slice';
import { refreshModels } from './model-choice';

const set = useStore.setState;
const get = useStore.getState;

/**
 * Saves a change of the settings; resolves true when main took it. `refused` shows main's refusal where the change
 * was asked (Settings' footer): the banner lay hidden behind the modal, and its Retry sent the same bad value again
 * (settings audit #1), with the setting main names as the one it refused, where it names one. Without it, the banner
 * says it, with Retry.
 */
export async function saveSettings(patch: Partial<Settings>, refused?: (message: string, setting: SettingName | undefined) => void): Promise<boolean> {
  let settings: Settings;
  try {
    settings = await firebrand().settings.update(patch);
  } catch (err) {
    if (refused) refused(errorMessage(err), err instanceof FirebrandError ? err.setting : undefined);
    else fail(err, () => void saveSettings(patch));
    return false;
  }
  settingsAdopted++;
  set({ settings, notice: null });
  await refreshModels();
  return true;
}

/** How many times settings newer than the first read were taken: the first read, answered later, must not undo them. */
let settingsAdopted = 0;

/**
 * Settings saved in another window or tab (or read again after the link dropped) show here too: the theme at
 * once, and another connection made active lists its models. Without this a tab kept the theme it had opened with.
 */
export function adoptSettings(settings: Settings): void {
  const before = get().settings;
  settingsAdopted++;
  set({ settings });
  if (!before || before.activeConnectionId === settings.activeConnectionId) return;
  void refreshModels();
  // A connection added in another tab and made active there: this tab's list names it too.
  if (!useConnectionsStore.getState().connections.some((c) => c.id === settings.activeConnectionId)) void loadConnections();
}

/** How many times settings newer than the first read were taken so far (connectStore's first read checks it). */
export function settingsAdoptions(): number {
  return settingsAdopted;
}
