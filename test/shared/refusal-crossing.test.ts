/**
 * In the desktop app a refusal reaches the page through Electron's contextBridge, which copies an Error's message
 * only: a FirebrandError thrown in the preload arrived as a bare Error, without its code or the setting it names,
 * so Settings could not mark the field main refused. The preload rejects with data instead; the page makes it a
 * FirebrandError again. The bridge is stood in for as its documentation says it copies: an Error by its message,
 * other values by a structured clone.
 */
import { describe, expect, it } from 'vitest';
import { asRefusalData, buildBridge, withRefusalsAsErrors, type BridgeTransport, type FirebrandApi } from '../../src/shared/bridge';
import { FirebrandError, type IpcErrorData } from '../../src/shared/ipc';

/** The API as the page sees it across contextBridge: each call's rejection copied as the bridge copies it. */
function acrossContextBridge(api: FirebrandApi): FirebrandApi {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [name, methods] of Object.entries(api as unknown as Record<string, Record<string, (req: unknown) => unknown>>)) {
    out[name] = {};
    for (const [method, fn] of Object.entries(methods)) {
      out[name][method] = (req: unknown) => {
        const value = fn(req);
        if (!(value instanceof Promise)) return value;
        return value.catch((err: unknown) => {
          throw err instanceof Error ? new Error(err.message) : structuredClone(err);
        });
      };
    }
  }
  return out as unknown as FirebrandApi;
}

const refused: IpcErrorData = { code: 'invalid-payload', message: 'The number of idle minutes … must be at most 10,080.', setting: 'builtinIdleMinutes' };
const transport = (answer: () => Promise<never> | Promise<{ ok: false; error: IpcErrorData }>): BridgeTransport => ({
  invoke: answer,
  subscribe: () => () => undefined,
});

async function rejection(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => {
      throw new Error('the call was not refused');
    },
    (err: unknown) => err,
  );
}

describe('a refusal from main in the desktop app', () => {
  it('reaches the page as a FirebrandError with its code and the setting it names', async () => {
    const preload = buildBridge(
      transport(async () => ({ ok: false, error: refused })),
      asRefusalData,
    );
    const err = await rejection(withRefusalsAsErrors(acrossContextBridge(preload)).settings.update({ builtinIdleMinutes: 20_000 }));
    expect(err).toBeInstanceOf(FirebrandError);
    expect(err).toMatchObject({ code: 'invalid-payload', message: refused.message, setting: 'builtinIdleMinutes' });
  });

  it('lost its code and setting as a FirebrandError thrown in the preload (why it crosses as data)', async () => {
    const preload = buildBridge(transport(async () => ({ ok: false, error: refused })));
    const err = await rejection(withRefusalsAsErrors(acrossContextBridge(preload)).settings.update({ builtinIdleMinutes: 20_000 }));
    expect(err).not.toBeInstanceOf(FirebrandError);
    expect(err).toMatchObject({ message: refused.message });
    expect((err as { setting?: unknown }).setting).toBeUndefined();
  });

  it('leaves any other failure as it came (the IPC itself failing)', async () => {
    const preload = buildBridge(
      transport(() => Promise.reject(new Error('Error invoking remote method'))),
      asRefusalData,
    );
    const err = await rejection(withRefusalsAsErrors(acrossContextBridge(preload)).settings.update({ theme: 'dark' }));
    expect(err).not.toBeInstanceOf(FirebrandError);
    expect(err).toMatchObject({ message: 'Error invoking remote method' });
  });
});
