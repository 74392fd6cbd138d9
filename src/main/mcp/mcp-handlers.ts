/**
 * Settings → Tools over IPC (issue 19): list, add or edit, enable or disable, per-tool switches, restart, and
 * import of an `mcpServers` file. A new or enabled server is started at once, so the user sees its state and
 * tools while still in Settings; an edited one is restarted only when what it runs changed; a disabled or removed
 * one is stopped.
 */
import type { McpInvokeContract } from '../../shared/mcp';
import { UserFacingError } from '../errors';
import type { WithdrawnReason } from '../../shared/system-turns';
import type { ApprovalGate } from '../tools/approval-gate';
import { isServersApprovalKey, mcpApprovalKey, type McpManager } from './mcp-manager';
import type { StopReason } from './mcp-server-host';
import type { StoredMcpServer } from './mcp-store';
import { parseMcpImport } from './mcp-import';

type Handlers = { [C in keyof McpInvokeContract]: (req: McpInvokeContract[C]['req']) => McpInvokeContract[C]['res'] | Promise<McpInvokeContract[C]['res']> };

export function createMcpHandlers(manager: McpManager, newId: () => string, approvals?: ApprovalGate): Handlers {
  const { store } = manager;
  // A card that waits for a tool of a server removed or switched off gets no Allow that could no longer run it.
  const withdrawServer = (id: string, why: WithdrawnReason) => approvals?.withdraw((key) => isServersApprovalKey(id, key), why);
  const infoOf = (id: string) => {
    const s = store.get(id);
    if (!s) throw new UserFacingError('not-found', 'That tool server no longer exists.');
    return manager.info(s);
  };
  /** Stops what runs and, when enabled, starts what is configured now (in the background: its state tells). */
  const restartIfEnabled = async (id: string, reason: StopReason) => {
    await manager.stopHost(id, reason);
    if (store.get(id)?.enabled) void manager.host(id).start().catch(() => undefined);
  };
  /** What the server's process is started with, secrets included (compared in memory only, never kept). */
  const programOf = (s: StoredMcpServer) => JSON.stringify([s.transport, s.command, s.args, s.cwd, s.url, store.env(s), store.headers(s)]);
  return {
    'mcp:list': () => manager.list(),
    'mcp:save': async (input) => {
      const before = input.id !== undefined ? store.get(input.id) : undefined;
      const program = before && programOf(before);
      const saved = store.save(input, newId);
      // A new name, timeout or "start with Firebrand" applies without a restart: restarting ended the call in
      // progress (tools audit #2). Only another program, or the switch, restarts (or stops) it.
      if (before?.enabled && !saved.enabled) withdrawServer(saved.id, 'server-off');
      if (!before || program !== programOf(saved) || before.enabled !== saved.enabled) await restartIfEnabled(saved.id, saved.enabled ? 'edited' : 'disabled');
      manager.changed();
      return infoOf(saved.id);
    },
    'mcp:delete': async ({ id }) => {
      withdrawServer(id, 'server-removed');
      await manager.stopHost(id, 'removed');
      manager.forget(id);
      const deleted = store.delete(id);
      manager.changed();
      return { deleted };
    },
    'mcp:set-enabled': async ({ id, enabled }) => {
      if (!store.update(id, { enabled })) throw new UserFacingError('not-found', 'That tool server no longer exists.');
      if (!enabled) withdrawServer(id, 'server-off');
      await restartIfEnabled(id, enabled ? 'restarted' : 'disabled');
      manager.changed();
      return infoOf(id);
    },
    'mcp:set-tool': ({ id, tool, enabled, alwaysAllow }) => {
      if (enabled === false && store.get(id)) approvals?.withdraw((key) => key === mcpApprovalKey(id, tool), 'tool-off');
      if (!manager.setTool(id, tool, { ...(enabled !== undefined ? { enabled } : {}), ...(alwaysAllow !== undefined ? { alwaysAllow } : {}) })) {
        throw new UserFacingError('not-found', 'That tool server no longer exists.');
      }
      return infoOf(id);
    },
    'mcp:restart': async ({ id }) => {
      infoOf(id);
      await manager.stopHost(id, 'restarted');
      void manager.host(id).start().catch(() => undefined);
      return infoOf(id);
    },
    'mcp:import': ({ text }) => {
      let parsed;
      try {
        parsed = parseMcpImport(text);
      } catch (err) {
        throw new UserFacingError('invalid-payload', err instanceof Error ? err.message : String(err));
      }
      const added: string[] = [];
      const skipped = [...parsed.skipped];
      for (const { input, alwaysAllow, disabledTools } of parsed.servers) {
        // The form's "pick another name" asked for what an import has no box for (tools audit, mcp2 #4).
        const clash = store.list().find((s) => s.name.toLowerCase() === input.name.trim().toLowerCase());
        if (clash) {
          const reason = `There is a server named “${clash.name}” already (names are compared ignoring case). If this is another server, rename “${clash.name}” here first, or change its name in the file, and import the file again.`;
          skipped.push({ name: input.name, reason });
          continue;
        }
        try {
          const saved = store.save(input, newId);
          store.update(saved.id, { alwaysAllow, disabledTools });
          added.push(saved.name);
          if (saved.enabled) void manager.host(saved.id).start().catch(() => undefined);
        } catch (err) {
          skipped.push({ name: input.name, reason: err instanceof Error ? err.message : String(err) });
        }
      }
      manager.changed();
      return { added, skipped };
    },
  };
}
