/**
 * Settings → connections: the servers the user chats with. Keys go to main once and never come back; the list
 * only says whether one is saved. The active connection is a setting: the model list and sends follow it.
 */
import { create } from 'zustand';
import type { ConnectionInfo, ConnectionInput, ConnectionTestResult } from '../../shared/connections';
import { firebrand } from '../firebrand';
import { takeFirst } from '../boot';
import { refreshModels, saveSettings, useStore } from './index';
import { attemptWith, errorMessage } from './errors';

export interface ConnectionsState {
  connections: ConnectionInfo[];
  /** The last "Test connection" result per connection id. */
  tests: Record<string, ConnectionTestResult | 'testing'>;
  /**
   * The address each test asked. A result is shown only beside that address: "Could not reach …" stayed under an
   * address typed or saved since, as if it were about that one.
   */
  testedUrls: Record<string, string>;
  error: string | null;
}

export const useConnectionsStore = create<ConnectionsState>(() => ({ connections: [], tests: {}, testedUrls: {}, error: null }));
const set = useConnectionsStore.setState;
const get = useConnectionsStore.getState;
const attempt = (action: () => Promise<void>) => attemptWith((error) => set({ error }), action);

export function loadConnections(): Promise<boolean> {
  // The first load takes the list boot.ts asked for at start.
  return attempt(async () => set({ connections: await (takeFirst('connections') ?? firebrand().connections.list({})) }));
}

/**
 * The link to serve mode is back: a connection added, renamed or removed in another tab meanwhile (or since this
 * tab listed them: no event says so) is read again where the page holds the list, so the picker's groups and
 * Settings → Connections name what is saved.
 */
export function rereadConnections(): Promise<void> {
  if (get().connections.length === 0) return Promise.resolve();
  return attempt(async () => set({ connections: await firebrand().connections.list({}) })).then(() => undefined);
}

/**
 * A connection added, edited or removed in another window or tab (`connections:changed`): Settings and the picker's
 * groups name what is saved, and where it is the one in use its models are listed again (another address, kind or
 * key lists others). Before, a tab showed the old connection until it reconnected or was reloaded.
 */
export function adoptConnections(connections: ConnectionInfo[], changedId: string): void {
  set({ connections });
  const active = useStore.getState().settings?.activeConnectionId ?? 'ollama';
  if (changedId === active) void refreshModels();
}

/**
 * Saves a connection, new (no id) or edited; resolves it as main saved it (its address normalized), or null on
 * failure. A refusal goes to `showError`, the form that asked: in the section's one line under the add form, the
 * editor's refusal was out of view and stayed after its Cancel (settings audit #4).
 */
export async function saveConnection(input: ConnectionInput, showError: (error: string | null) => void): Promise<ConnectionInfo | null> {
  let saved: ConnectionInfo | null = null;
  await attemptWith(showError, async () => {
    saved = await firebrand().connections.save(input);
    set({ connections: await firebrand().connections.list({}) });
  });
  // A saved address or key makes the last test's result about another connection than this one.
  if (saved !== null && input.id !== undefined) forgetTest(input.id);
  return saved;
}

export function removeConnection(id: string, activeId: string): Promise<boolean> {
  return attempt(async () => {
    await firebrand().connections.delete({ id });
    set({ connections: await firebrand().connections.list({}) });
    // The composer cannot keep sending to a server that is gone: back to the built-in Ollama.
    if (id === activeId) await saveSettings({ activeConnectionId: 'ollama' });
  });
}

/**
 * "Test connection" on the address shown (typed but maybe not saved). A working server that is the one in use
 * clears the model list's error at once: the picker and the banner do not wait for the next look.
 */
export async function testConnection(id: string, baseUrl?: string): Promise<void> {
  const url = baseUrl ?? get().connections.find((c) => c.id === id)?.baseUrl ?? '';
  set({ tests: { ...get().tests, [id]: 'testing' }, testedUrls: { ...get().testedUrls, [id]: url } });
  let result: ConnectionTestResult;
  try {
    result = await firebrand().connections.test({ id, ...(baseUrl ? { baseUrl } : {}) });
  } catch (err) {
    result = { ok: false, error: errorMessage(err) };
  }
  // A test of another address begun meanwhile (the address edited, Test pressed again) has the last word.
  if (get().testedUrls[id] !== url) return;
  set({ tests: { ...get().tests, [id]: result } });
  const saved = get().connections.find((c) => c.id === id)?.baseUrl;
  const active = useStore.getState().settings?.activeConnectionId ?? 'ollama';
  if (result.ok && id === active && (baseUrl === undefined || baseUrl === saved)) void refreshModels();
}

function forgetTest(id: string): void {
  const { [id]: _test, ...tests } = get().tests;
  const { [id]: _url, ...testedUrls } = get().testedUrls;
  set({ tests, testedUrls });
}

/**
 * The server in use was found down or back (the model list failed, or came), or Settings opened on a Test result
 * that says otherwise: it is asked again. Before, "Could not reach …" stayed in Settings after the server came back, beside a working picker.
 */
export function retestOnLiveChange(unreachable: boolean, connectionId: string | undefined): void {
  if (connectionId === undefined) return;
  const result = get().tests[connectionId];
  if (result === undefined || result === 'testing' || result.ok !== unreachable) return;
  const saved = get().connections.find((c) => c.id === connectionId)?.baseUrl;
  // Only a result about the saved address: the live status says nothing of an address typed but not saved.
  if (saved === undefined || get().testedUrls[connectionId] !== saved) return;
  void testConnection(connectionId);
}

/** Loads the connections once at start, so the model picker can name the group of each alias. */
export function loadConnectionsOnce(): void {
  if (get().connections.length === 0) void loadConnections();
}
