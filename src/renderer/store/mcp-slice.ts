/**
 * Settings → Tools: the MCP servers, their state and tools. Main pushes the whole list on every change
 * (`mcp:changed`); actions go to main and the pushed list follows. Secret values go to main once and never
 * come back.
 */
import { create } from 'zustand';
import type { McpImportResult, McpServerInfo, McpServerInput } from '../../shared/mcp';
import { schemeAssumedWords } from '../../shared/server-address';
import { firebrand } from '../firebrand';
import { attemptWith } from './errors';

export interface McpState {
  servers: McpServerInfo[];
  error: string | null;
  /**
   * What the last import added and skipped, until the user's next change here (tools audit, mcp2 #3: it stayed
   * long after, and could name as added a server since removed). Cleared by the next action, never by a timer.
   */
  imported: McpImportResult | null;
  /** Server forms (add, edit) open with something typed in them: Settings asks before closing over them. */
  formsTyped: number;
  /**
   * What was assumed of the address a server was just saved with ("Saved as http://localhost:3001/mcp: …"), shown
   * on its row until the user's next change here, as the import's line is.
   */
  savedNote: { id: string; text: string } | null;
}

export const useMcpStore = create<McpState>(() => ({ servers: [], error: null, imported: null, formsTyped: 0, savedNote: null }));
const set = useMcpStore.setState;
const attempt = (action: () => Promise<void>) => attemptWith((error) => set({ error }), action);

/**
 * The import's line, and a saved address's note, go with the next change the user makes in Settings → Tools, or
 * when Settings closes.
 */
export function clearImportResult(): void {
  const { imported, savedNote } = useMcpStore.getState();
  if (imported !== null || savedNote !== null) set({ imported: null, savedNote: null });
}
let subscribed = false;

/** A server form holds typed changes from now until the returned function is called (saved, cancelled, closed). */
export function holdTypedForm(): () => void {
  set({ formsTyped: useMcpStore.getState().formsTyped + 1 });
  return () => set({ formsTyped: useMcpStore.getState().formsTyped - 1 });
}

/** Keeps the list current with main's pushes (the composer's measure follows the tools on offer). */
export function watchMcpServers(): void {
  if (subscribed) return;
  subscribed = true;
  firebrand().mcp.onChanged(({ servers }) => set({ servers }));
}

const refresh = async () => set({ servers: await firebrand().mcp.list({}), error: null });

/**
 * The link to serve mode is back: `mcp:changed` pushes sent meanwhile were lost, so a server that started, failed
 * or was switched in another tab would keep its old state in Settings → Tools (and the composer's tools). Read
 * again when the page holds the list at all; one never loaded is read when Settings → Tools opens.
 */
export function rereadMcpServers(): Promise<void> {
  if (!subscribed) return Promise.resolve();
  return refresh().catch(() => undefined);
}

export function loadMcpServers(): Promise<boolean> {
  watchMcpServers();
  return attempt(async () => set({ servers: await firebrand().mcp.list({}), error: null }));
}

/** The MCP tools a request offers now, as one string: the measure of the next request changes with it. */
export function offeredToolsKey(servers: readonly McpServerInfo[]): string {
  return servers
    .filter((s) => s.enabled)
    .flatMap((s) => s.tools.flatMap((t) => (t.enabled && t.offeredAs !== null ? [t.offeredAs] : [])))
    .join(',');
}

/** `showError`: where a refusal is said; the form shows its own, so it goes with the form (Cancel took it away). */
export function saveMcpServer(input: McpServerInput, showError?: (error: string | null) => void): Promise<boolean> {
  clearImportResult();
  return attemptWith(showError ?? ((error) => set({ error })), async () => {
    const saved = await firebrand().mcp.save(input);
    // Main takes `localhost:3001/mcp` as http://localhost:3001/mcp, as the connection forms do: said, so the saved
    // address is no surprise.
    const why = saved.transport === 'http' && input.url !== undefined ? schemeAssumedWords(input.url) : null;
    if (why) set({ savedNote: { id: saved.id, text: `Saved as ${saved.url}: ${why}.` } });
    await refresh();
  });
}

export function removeMcpServer(id: string): Promise<boolean> {
  clearImportResult();
  return attempt(async () => {
    await firebrand().mcp.delete({ id });
    await refresh();
  });
}

/** Shows a switch's new position at once (main's list follows and wins); a failure puts the list back. */
function optimistic(id: string, change: (s: McpServerInfo) => McpServerInfo): void {
  set({ servers: useMcpStore.getState().servers.map((s) => (s.id === id ? change(s) : s)) });
}

export function setMcpServerEnabled(id: string, enabled: boolean): Promise<boolean> {
  clearImportResult();
  optimistic(id, (s) => ({ ...s, enabled }));
  return attempt(async () => {
    await firebrand().mcp.setEnabled({ id, enabled });
    await refresh();
  }).then(async (ok) => {
    if (!ok) await refresh().catch(() => undefined);
    return ok;
  });
}

export async function setMcpTool(id: string, tool: string, change: { enabled?: boolean; alwaysAllow?: boolean }): Promise<boolean> {
  clearImportResult();
  optimistic(id, (s) => ({ ...s, tools: s.tools.map((t) => (t.name === tool ? { ...t, ...change } : t)) }));
  const ok = await attempt(async () => {
    await firebrand().mcp.setTool({ id, tool, ...change });
    await refresh();
  });
  if (!ok) await refresh().catch(() => undefined);
  return ok;
}

export function restartMcpServer(id: string): Promise<boolean> {
  clearImportResult();
  return attempt(async () => {
    await firebrand().mcp.restart({ id });
    await refresh();
  });
}

export function importMcpServers(text: string): Promise<boolean> {
  clearImportResult();
  return attempt(async () => {
    const imported = await firebrand().mcp.import({ text });
    set({ imported });
    await refresh();
  });
}
