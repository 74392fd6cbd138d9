import type { IpcErrorCode } from '../shared/ipc';

/** An error whose message is written for the user and may be shown as is. */
export class UserFacingError extends Error {
  readonly code: IpcErrorCode;
  constructor(code: IpcErrorCode, message: string) {
    super(message);
    this.name = 'UserFacingError';
    this.code = code;
  }
}
