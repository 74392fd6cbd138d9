#!/usr/bin/env node
// An MCP stdio server built on the official SDK's low-level Server, as many published servers are, for the tests
// of what Firebrand shows of their errors (tools audit, mcp2 #1). Its first argument picks what it does:
//   tools        lists `region` (throws an McpError, as such servers answer arguments they refuse), `chart` (an
//                image whose data is not base64 between two texts) and `gone` (the error result the SDK's
//                McpServer gives for a tool it does not have)
//   list-error   answers initialize, then refuses tools/list with an McpError
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';

const mode = process.argv[2] ?? 'tools';
const server = new Server({ name: 'sdk-server', version: '1.0.0' }, { capabilities: { tools: {} } });
const object = { type: 'object', properties: { name: { type: 'string' } } };

server.setRequestHandler(ListToolsRequestSchema, async () => {
  if (mode === 'list-error') throw new McpError(ErrorCode.InvalidParams, 'This server needs a "region" setting before it can list its tools.');
  return {
    tools: [
      { name: 'region', description: 'Looks up a region.', inputSchema: object },
      { name: 'chart', description: 'Draws a chart.', inputSchema: object },
      { name: 'gone', description: 'A tool that went away.', inputSchema: object },
    ],
  };
});

server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name, arguments: args } = request.params;
  if (name === 'region') throw new McpError(ErrorCode.InvalidParams, `Unknown region “${args?.name ?? ''}”; use one of: eu, us.`);
  if (name === 'chart') {
    return {
      content: [
        { type: 'text', text: 'Here is the chart:' },
        { type: 'image', data: '%%% not base64 %%%', mimeType: 'image/png' },
        { type: 'text', text: 'Total: 42' },
      ],
    };
  }
  return { content: [{ type: 'text', text: `MCP error -32602: Tool ${name} not found` }], isError: true };
});

await server.connect(new StdioServerTransport());
