/**
 * Settings → Tools over IPC (issue 19): list, add or edit, enable or disable, per-tool switches, restart, and
 * import of an `mcpServers` file. A saved or enabled server is started at once, so the user sees its state and
 * tools while still in Settings; a disabled or removed one is stopped.
 */
import type { McpInvokeContract } from '../../shared/mcp';
import { UserFacingError } from '../errors';
import type { McpManager } from './mcp-manager';
import { parseMcpImport } from './mcp-import';

type Handlers = { [C in keyof McpInvokeContract]: (req: McpInvokeContract[C]['req']) => McpInvokeContract[C]['res'] | Promise<McpInvokeContract[C]['res']> };

export function createMcpHandlers(manager: McpManager, newId: () => string): Handlers {
  const { store } = manager;
  const infoOf = (id: string) => {
    const s = store.get(id);
    if (!s) throw new UserFacingError('not-found', 'That tool server no longer exists.');
    return manager.info(s);
  };
  /** Stops what runs and, when enabled, starts what is configured now (in the background: its state tells). */
  const restartIfEnabled = async (id: string) => {
    await manager.stopHost(id);
    if (store.get(id)?.enabled) void manager.host(id).start().catch(() => undefined);
  };
  return {
    'mcp:list': () => manager.list(),
    'mcp:save': async (input) => {
      const saved = store.save(input, newId);
      await restartIfEnabled(saved.id);
      manager.changed();
      return infoOf(saved.id);
    },
    'mcp:delete': async ({ id }) => {
      await manager.stopHost(id);
      manager.forget(id);
      const deleted = store.delete(id);
      manager.changed();
      return { deleted };
    },
    'mcp:set-enabled': async ({ id, enabled }) => {
      if (!store.update(id, { enabled })) throw new UserFacingError('not-found', 'That tool server no longer exists.');
      await restartIfEnabled(id);
      manager.changed();
      return infoOf(id);
    },
    'mcp:set-tool': ({ id, tool, enabled, alwaysAllow }) => {
      if (!manager.setTool(id, tool, { ...(enabled !== undefined ? { enabled } : {}), ...(alwaysAllow !== undefined ? { alwaysAllow } : {}) })) {
        throw new UserFacingError('not-found', 'That tool server no longer exists.');
      }
      return infoOf(id);
    },
    'mcp:restart': async ({ id }) => {
      infoOf(id);
      await manager.stopHost(id);
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
