/**
 * The one wrapper every invoke goes through, whatever carries it (Electron IPC or the serve WebSocket):
 * unknown channels and invalid payloads are rejected and logged before any handler runs, and thrown errors
 * come back as data with a message for the user. The carrier checks the sender before calling this.
 */
import {
  INVOKE_CHANNELS,
  type InvokeChannel,
  type InvokeContract,
  type IpcErrorData,
  type IpcResult,
} from '../../shared/ipc';
import { UserFacingError } from '../errors';
import { payloadValidators } from './payload-validators.generated.js';
import { refusalMessage, refusedSetting } from './refusal-message';

export type InvokeHandlers = {
  [C in InvokeChannel]: (req: InvokeContract[C]['req']) => Promise<InvokeContract[C]['res']> | InvokeContract[C]['res'];
};

export type IpcLog = (message: string) => void;

export interface Dispatcher {
  dispatch(channel: unknown, payload: unknown): Promise<IpcResult<unknown>>;
}

function isInvokeChannel(channel: unknown): channel is InvokeChannel {
  return typeof channel === 'string' && (INVOKE_CHANNELS as readonly string[]).includes(channel);
}

export function createDispatcher(handlers: InvokeHandlers, log: IpcLog): Dispatcher {
  return {
    async dispatch(channel, payload) {
      if (!isInvokeChannel(channel)) {
        log(`ipc: rejected unknown channel ${JSON.stringify(String(channel)).slice(0, 120)}`);
        return fail({ code: 'unknown-channel', message: 'Unknown request.' });
      }
      // Compiled ahead of time from schemas.ts (scripts/payload-validators.ts), so no request waits on Ajv's
      // compiler. `maxLength` counts code points one by one; large strings are capped by `maxChars`, a plain length check.
      const validate = payloadValidators[channel];
      if (!validate(payload)) {
        const detail = validate.errors?.[0];
        log(`ipc: rejected invalid payload on ${channel}: ${detail?.instancePath ?? ''} ${detail?.message ?? ''}`);
        const setting = refusedSetting(channel, detail);
        return fail({ code: 'invalid-payload', message: refusalMessage(channel, payload, detail), ...(setting ? { setting } : {}) });
      }
      try {
        const handler = handlers[channel] as (req: unknown) => unknown;
        return { ok: true, value: await handler(payload) };
      } catch (err) {
        if (err instanceof UserFacingError) return fail({ code: err.code, message: err.message, ...(err.setting ? { setting: err.setting } : {}) });
        if (isDiskFull(err)) {
          log(`ipc: ${channel} failed: the disk is full`);
          return fail({ code: 'internal', message: 'The disk is full, so this was not saved. Free some space, then try again.' });
        }
        if ((err as { code?: unknown } | null)?.code === 'SQLITE_READONLY') {
          // The chats were opened read-only, the disk being too full to open them (db/read-only-copy.ts).
          log(`ipc: ${channel} failed: the chats are open read-only`);
          return fail({ code: 'internal', message: 'The disk is full, so your chats are open read-only and this was not saved. Free some space on that disk, then start Firebrand again.' });
        }
        log(`ipc: ${channel} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        return fail({ code: 'internal', message: 'Something went wrong inside Firebrand; the details are in the log.' });
      }
    },
  };
}

/** SQLite's "database or disk is full" (or the filesystem's own ENOSPC): the user can fix this one. */
function isDiskFull(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_FULL' || code === 'ENOSPC';
}

function fail(error: IpcErrorData): IpcResult<never> {
  return { ok: false, error };
}
