/**
 * Settings → Tools, what it says (tools audit, mcp2): a server switched off says its tools are not offered, where
 * it read "Tools (13 of 13 on)"; the line an import leaves goes with the user's next change there, where it stayed
 * on long after (and could name as added a server since removed); the server form's buttons and fields have names
 * a screen reader tells apart ("Add variable", not a second "Add").
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeEach, describe, expect, it } from 'vitest';
import { McpServerForm } from '../../src/renderer/components/tools/McpServerForm';
import { McpServerItem } from '../../src/renderer/components/tools/McpServerItem';
import { importMcpServers, removeMcpServer, setMcpServerEnabled, setMcpTool, useMcpStore } from '../../src/renderer/store/mcp-slice';
import type { McpImportResult, McpServerInfo } from '../../src/shared/mcp';
import { fakeApi } from './helpers/fake-api';

const tools = Array.from({ length: 13 }, (_, i) => ({ name: `tool${i}`, offeredAs: `tool${i}`, description: '', enabled: true, alwaysAllow: false }));
function server(enabled: boolean): McpServerInfo {
  return {
    id: 's1', name: 'everything', transport: 'stdio', command: 'node', args: ['everything.js'], cwd: null, url: '', envNames: [], headerNames: [],
    enabled, startWithApp: false, timeoutSeconds: 60, state: enabled ? 'ready' : 'stopped', error: null, stderrTail: '', startingLine: null, protocol: 'stdio', tools, toolsKnown: true,
  };
}

const IMPORTED: McpImportResult = { added: ['everything'], skipped: [{ name: 'notes', reason: 'it has neither a "command" nor a "url"' }] };

beforeEach(() => {
  (globalThis as { window?: unknown }).window = {
    firebrand: fakeApi({
      mcp: {
        list: () => Promise.resolve([server(true)]),
        import: () => Promise.resolve(IMPORTED),
        setTool: () => Promise.resolve(server(true)),
        setEnabled: () => Promise.resolve(server(false)),
        delete: () => Promise.resolve({}),
      },
    }),
  };
  useMcpStore.setState({ servers: [], error: null, imported: null, formsTyped: 0 });
});

describe('Settings → Tools', () => {
  it('a server switched off says its tools are not offered, not that all of them are on', () => {
    const off = renderToStaticMarkup(<McpServerItem server={server(false)} />);
    expect(off).toContain('Tools (13, none offered: the server is off)');
    expect(off).not.toContain('13 of 13 on');
    expect(renderToStaticMarkup(<McpServerItem server={server(true)} />)).toContain('Tools (13 of 13 on)');
  });

  it.each([
    ['a tool switched', () => setMcpTool('s1', 'tool1', { enabled: false })],
    ['the server switched off', () => setMcpServerEnabled('s1', false)],
    ['the server removed', () => removeMcpServer('s1')],
  ])('the line an import leaves stays until the next change (%s), then goes', async (_, change) => {
    expect(await importMcpServers('{"mcpServers":{}}')).toBe(true);
    // Read at leisure: nothing clears it but the user's next change.
    expect(useMcpStore.getState().imported).toEqual(IMPORTED);
    expect(await change()).toBe(true);
    expect(useMcpStore.getState().imported).toBeNull();
  });

  it('a second import shows its own line', async () => {
    await importMcpServers('{"mcpServers":{}}');
    const second = importMcpServers('{"mcpServers":{}}');
    // Not the first import's line while the second runs.
    expect(useMcpStore.getState().imported).toBeNull();
    await second;
    expect(useMcpStore.getState().imported).toEqual(IMPORTED);
  });

  it('the server form names its buttons and fields apart: "Add variable", "Working folder", "Call timeout"', () => {
    const html = renderToStaticMarkup(<McpServerForm onDone={() => undefined} />);
    const buttons = [...html.matchAll(/<button[^>]*>([^<]*)<\/button>/g)].map((m) => m[1]);
    expect(buttons).toContain('Add variable');
    expect(buttons).toContain('Add server');
    expect(buttons).not.toContain('Add');
    expect(html).toMatch(/<label class="field">Working folder \(optional\)<input/);
    expect(html).toMatch(/<label class="field mcp-timeout">Call timeout \(seconds\)<input[^>]*inputMode="numeric"/);
  });
});
