/**
 * What a server built on the official MCP SDK says when it refuses something, as the card and Settings → Tools
 * show it (tools audit, mcp2 #1): its message once, without the SDK's "MCP error -32602: " (which the server's
 * SDK and Firebrand's each put before it), and an image that cannot be read said in words, the rest of the result
 * kept. The server is a real one on the SDK's low-level Server (test/main/mcp/servers/sdk-server.mjs).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolResultBlock } from '../../../src/shared/turn';
import { addServer, callAnswer, MODEL, scripted, sdkServer, settled, stage, textAnswer, type Stage } from './helpers';

let st: Stage | undefined;
afterEach(async () => {
  await st?.close();
  st = undefined;
});

async function callOnce(tool: string, args: Record<string, unknown> = {}): Promise<ToolResultBlock> {
  const s = (st ??= await stage()).services;
  const info = await addServer(s, sdkServer('tools'));
  await s.handlers['mcp:set-tool']({ id: info.id, tool, alwaysAllow: true });
  st.plan.push(callAnswer(tool, args), textAnswer('Noted.'));
  const sent = await s.handlers['chat:send']({ conversationId: null, text: `use ${tool}`, model: MODEL });
  const turns = await settled(st, sent.conversationId);
  return turns[2]?.blocks[0] as ToolResultBlock;
}

describe('a server not built on the SDK', () => {
  it('sending an image whose data is not base64: the card says so in words and keeps the rest of the result', async () => {
    st = await stage();
    const s = st.services;
    const dir = mkdtempSync(join(tmpdir(), 'firebrand-mcp-log-'));
    try {
      const info = await addServer(s, scripted('bad-image', join(dir, 'log.txt')));
      await s.handlers['mcp:set-tool']({ id: info.id, tool: 'wait', alwaysAllow: true });
      st.plan.push(callAnswer('wait', {}), textAnswer('Noted.'));
      const sent = await s.handlers['chat:send']({ conversationId: null, text: 'draw', model: MODEL });
      const turns = await settled(st, sent.conversationId);
      expect(turns[2]?.blocks[0]).toMatchObject({
        isError: false,
        content: 'Here is the chart:\n[The server sent an image that could not be read (its data is not valid base64); it was left out]\nTotal: 42',
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a server built on the MCP SDK', () => {
  it('refusing a call with an McpError: the card gives its message once, naming the tool once, with no "MCP error -32602:"', async () => {
    const result = await callOnce('region', { name: 'mars' });
    // Tools wording: it read "region failed: atlas could not run region: …", the tool named and its failing said twice.
    expect(result).toMatchObject({ isError: true, content: 'atlas could not run region: Unknown region “mars”; use one of: eu, us.' });
    expect(result.content).not.toContain('MCP error');
  });

  it('answering with an error result that starts "MCP error -32602:" (the SDK’s McpServer does): shown without it', async () => {
    const result = await callOnce('gone');
    expect(result).toMatchObject({ isError: true });
    expect(result.content).toContain('Tool gone not found');
    expect(result.content).not.toContain('MCP error');
  });

  it('asked for a result with an image that is not base64: its SDK refuses to send it, and the card says why in words', async () => {
    const result = await callOnce('chart');
    expect(result).toMatchObject({
      isError: true,
      content: 'atlas could not run chart: the server could not send its result, because part 2 (an image or audio clip) could not be read: its data is not valid base64.',
    });
  });

  it('refusing to list its tools: Settings says why once, in its words', async () => {
    st = await stage();
    const info = await addServer(st.services, sdkServer('list-error'), 'failed');
    expect(info.error).toBe('The server started but could not list its tools: This server needs a "region" setting before it can list its tools.');
  });
});
