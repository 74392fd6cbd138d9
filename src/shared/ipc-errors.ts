/**
 * What a refused or failed `window.firebrand` call carries: data with a message written for the user (and, for a
 * refused save, the setting it is about), made a FirebrandError on the page's side.
 */
import type { Settings } from './ipc';

/** Errors a user can meet travel as data, with a message written for the user. */
export interface IpcErrorData {
  code: IpcErrorCode;
  message: string;
  /** The setting a refused save is about, so Settings marks and focuses its field rather than guess it from the words. */
  setting?: SettingName;
}

/**
 * A setting main checks, by a name that stays put when the wording of its refusals changes: a Settings key, or
 * `gpuOverride`, the GPU memory set by hand (gpu:set-override).
 */
export type SettingName = Exclude<keyof Settings, 'readOnly'> | 'gpuOverride';
export type IpcErrorCode =
  | 'unknown-channel'
  | 'invalid-payload'
  | 'forbidden'
  | 'not-found'
  /** What the request was based on changed meanwhile (another window or tab saved first): nothing was saved. */
  | 'conflict'
  /**
   * An answer is still on its way in that chat (another window or tab): the same request can go once it ends
   * (chat:answer-ended). Also other imports still on their way in: the same file can go once they are.
   */
  | 'busy'
  | 'server-unreachable'
  | 'server-error'
  | 'internal';

export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: IpcErrorData };

/** The error a `window.firebrand` call rejects with. */
export class FirebrandError extends Error {
  readonly code: IpcErrorCode;
  readonly setting: SettingName | undefined;
  constructor(data: IpcErrorData) {
    super(data.message);
    this.name = 'FirebrandError';
    this.code = data.code;
    this.setting = data.setting;
  }
}
