/**
 * Derives `window.firebrand` from the contract: `firebrand.<domain>.<camelAction>(req)` for invoke channels and
 * `firebrand.<domain>.on<CamelAction>(cb)` (returning an unsubscribe) for event channels. The preload builds it
 * over Electron IPC and the serve shim over a WebSocket, so the renderer cannot tell which it runs on.
 */
import {
  EVENT_CHANNELS,
  FirebrandError,
  INVOKE_CHANNELS,
  type EventChannel,
  type EventContract,
  type InvokeChannel,
  type InvokeContract,
  type IpcErrorData,
  type IpcResult,
} from './ipc';

type Camel<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;
type DomainOf<C extends string> = C extends `${infer D}:${string}` ? D : never;
type ActionOf<C extends string> = C extends `${string}:${infer A}` ? A : never;
type Domains = DomainOf<InvokeChannel> | DomainOf<EventChannel>;

export type FirebrandApi = {
  [D in Domains]: {
    [C in InvokeChannel as DomainOf<C> extends D ? Camel<ActionOf<C>> : never]: (
      req: InvokeContract[C]['req'],
    ) => Promise<InvokeContract[C]['res']>;
  } & {
    [C in EventChannel as DomainOf<C> extends D ? `on${Capitalize<Camel<ActionOf<C>>>}` : never]: (
      listener: (payload: EventContract[C]) => void,
    ) => () => void;
  };
};

/** What a carrier (Electron IPC, WebSocket) must provide. */
export interface BridgeTransport {
  invoke(channel: InvokeChannel, payload: unknown): Promise<IpcResult<unknown>>;
  subscribe(channel: EventChannel, listener: (payload: unknown) => void): () => void;
}

export function camelAction(channel: string): string {
  const action = channel.slice(channel.indexOf(':') + 1);
  return action.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
}

export function eventMethodName(channel: string): string {
  const camel = camelAction(channel);
  return `on${camel.charAt(0).toUpperCase()}${camel.slice(1)}`;
}

/**
 * A refusal as the preload rejects with it: Electron's contextBridge copies an Error's message only, so a
 * FirebrandError reached the page without its code or the setting it names. Plain data crosses whole.
 */
export interface RefusalData {
  firebrandRefusal: IpcErrorData;
}

const asError = (error: IpcErrorData): unknown => new FirebrandError(error);

/** For the preload: each refusal rejects as data (RefusalData), made a FirebrandError again by `withRefusalsAsErrors`. */
export const asRefusalData = (error: IpcErrorData): RefusalData => ({ firebrandRefusal: error });

/** `refuse`: what a refused call rejects with (a FirebrandError; the preload's: `asRefusalData`). */
export function buildBridge(transport: BridgeTransport, refuse: (error: IpcErrorData) => unknown = asError): FirebrandApi {
  const api: Record<string, Record<string, unknown>> = {};
  const domain = (channel: string) => {
    const name = channel.slice(0, channel.indexOf(':'));
    return (api[name] ??= {});
  };
  for (const channel of INVOKE_CHANNELS) {
    domain(channel)[camelAction(channel)] = async (req: unknown) => {
      const result = await transport.invoke(channel, req ?? {});
      if (!result.ok) throw refuse(result.error);
      return result.value;
    };
  }
  for (const channel of EVENT_CHANNELS) {
    domain(channel)[eventMethodName(channel)] = (listener: (payload: unknown) => void) =>
      transport.subscribe(channel, listener);
  }
  // The shape is built from the same channel lists the types are derived from; the test suite checks both agree.
  return api as unknown as FirebrandApi;
}

/** The page's side of the preload's bridge: each call refused with RefusalData rejects with a FirebrandError again. */
export function withRefusalsAsErrors(api: FirebrandApi): FirebrandApi {
  const given = api as unknown as Record<string, Record<string, unknown>>;
  const out: Record<string, Record<string, unknown>> = {};
  for (const [name, methods] of Object.entries(given)) out[name] = { ...methods };
  for (const channel of INVOKE_CHANNELS) {
    const domain = channel.slice(0, channel.indexOf(':'));
    const action = camelAction(channel);
    const call = given[domain]?.[action] as ((req: unknown) => Promise<unknown>) | undefined;
    if (!call) continue;
    (out[domain] ??= {})[action] = (req: unknown) =>
      call(req).catch((err: unknown) => {
        throw isRefusalData(err) ? new FirebrandError(err.firebrandRefusal) : err;
      });
  }
  return out as unknown as FirebrandApi;
}

function isRefusalData(value: unknown): value is RefusalData {
  const error = (value as Partial<RefusalData> | null)?.firebrandRefusal;
  return typeof error === 'object' && error !== null && typeof error.code === 'string' && typeof error.message === 'string';
}
