/**
 * The one wrapper every invoke goes through, whatever carries it (Electron IPC or the serve WebSocket):
 * unknown channels and invalid payloads are rejected and logged before any handler runs, and thrown errors
 * come back as data with a message for the user. The carrier checks the sender before calling this.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import {
  INVOKE_CHANNELS,
  type InvokeChannel,
  type InvokeContract,
  type IpcErrorData,
  type IpcResult,
} from '../../shared/ipc';
import { UserFacingError } from '../errors';
import { payloadSchemas } from './schemas';

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

/**
 * One compiled validator per channel for the whole process, compiled on the channel's first request: the schemas
 * are constants, and compiling all of them took most of a dispatcher's construction (a third of a second per
 * `createServices` on a busy 2-core machine, paid again by every test that builds services, and by every start).
 */
let ajv: Ajv | undefined;
const validators = new Map<InvokeChannel, ValidateFunction>();

function validatorFor(channel: InvokeChannel): ValidateFunction {
  let v = validators.get(channel);
  if (v) return v;
  if (!ajv) {
    // validateSchema off: checking a schema against the JSON Schema meta-schema first compiles the meta-schema,
    // ~0.1 s of CPU at every start (a third of a second on a busy machine, bench/start). These schemas are
    // constants: test/main/ipc/dispatch.test.ts checks them against the meta-schema instead.
    ajv = new Ajv({ allErrors: false, strict: true, validateSchema: false });
    // `maxLength` counts code points one by one in JS: 0.7 s on a 60 MiB import (issue 15). Large strings are
    // capped by `maxChars`, a plain length check, instead.
    ajv.addKeyword({ keyword: 'maxChars', type: 'string', schemaType: 'number', validate: (max: number, data: string) => data.length <= max, errors: false });
  }
  v = ajv.compile(payloadSchemas[channel]);
  validators.set(channel, v);
  return v;
}

/**
 * Compiles the validators of `channels` ahead of their first request: serve mode does it for the channels a page
 * asks first, while the browser is still loading the page (the first request waited ~40 ms for it, bench/start).
 */
export function warmValidators(channels: readonly InvokeChannel[]): void {
  for (const channel of channels) validatorFor(channel);
}

export function createDispatcher(handlers: InvokeHandlers, log: IpcLog): Dispatcher {
  return {
    async dispatch(channel, payload) {
      if (!isInvokeChannel(channel)) {
        log(`ipc: rejected unknown channel ${JSON.stringify(String(channel)).slice(0, 120)}`);
        return fail({ code: 'unknown-channel', message: 'Unknown request.' });
      }
      const validate = validatorFor(channel);
      if (!validate(payload)) {
        const detail = validate.errors?.[0];
        log(`ipc: rejected invalid payload on ${channel}: ${detail?.instancePath ?? ''} ${detail?.message ?? ''}`);
        return fail({ code: 'invalid-payload', message: `Invalid request for ${channel}.` });
      }
      try {
        const handler = handlers[channel] as (req: unknown) => unknown;
        return { ok: true, value: await handler(payload) };
      } catch (err) {
        if (err instanceof UserFacingError) return fail({ code: err.code, message: err.message });
        if (isDiskFull(err)) {
          log(`ipc: ${channel} failed: the disk is full`);
          return fail({ code: 'internal', message: 'The disk is full, so this was not saved. Free some space, then try again.' });
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
