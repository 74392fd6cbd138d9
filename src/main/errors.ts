import type { IpcErrorCode, SettingName } from '../shared/ipc';

/**
 * An error whose message is written for the user and may be shown as is. `setting`: the setting a refused save is
 * about, carried to the page with the message (IpcErrorData) so Settings marks that field.
 */
export class UserFacingError extends Error {
  readonly code: IpcErrorCode;
  readonly setting: SettingName | undefined;
  constructor(code: IpcErrorCode, message: string, setting?: SettingName) {
    super(message);
    this.name = 'UserFacingError';
    this.code = code;
    this.setting = setting;
  }
}
