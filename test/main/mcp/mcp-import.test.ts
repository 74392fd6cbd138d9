/** Issue 19: Settings → Tools imports the `mcpServers` JSON people already have from other apps. */
import { describe, expect, it } from 'vitest';
import { parseMcpImport } from '../../../src/main/mcp/mcp-import';

describe('an mcpServers file', () => {
  it('reads Claude Desktop’s shape: command, args, env, and remote servers by url', () => {
    const parsed = parseMcpImport(
      JSON.stringify({
        mcpServers: {
          filesystem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/me/notes'] },
          github: { command: 'docker', args: ['run', '-i', 'ghcr.io/github/github-mcp-server'], env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_x' }, cwd: '/tmp' },
          remote: { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer t' } },
          windsurf: { serverUrl: 'http://127.0.0.1:9000/sse' },
        },
      }),
    );
    expect(parsed.skipped).toEqual([]);
    expect(parsed.servers.map((s) => s.input)).toEqual([
      { name: 'filesystem', transport: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/me/notes'], cwd: null, env: [], enabled: true },
      { name: 'github', transport: 'stdio', command: 'docker', args: ['run', '-i', 'ghcr.io/github/github-mcp-server'], cwd: '/tmp', env: [{ name: 'GITHUB_PERSONAL_ACCESS_TOKEN', value: 'ghp_x' }], enabled: true },
      { name: 'remote', transport: 'http', url: 'https://mcp.example.com/mcp', headers: [{ name: 'Authorization', value: 'Bearer t' }], enabled: true },
      { name: 'windsurf', transport: 'http', url: 'http://127.0.0.1:9000/sse', headers: [], enabled: true },
    ]);
  });

  it('carries over disabled, a timeout in seconds, alwaysAllow and disabledTools (Cline), and reads VS Code’s "servers"', () => {
    const parsed = parseMcpImport(JSON.stringify({ servers: { slow: { command: 'uvx', args: ['slow-mcp'], disabled: true, timeout: 300, alwaysAllow: ['read'], disabledTools: ['write'] } } }));
    expect(parsed.servers[0]).toEqual({ input: { name: 'slow', transport: 'stdio', command: 'uvx', args: ['slow-mcp'], cwd: null, env: [], enabled: false, timeoutSeconds: 300 }, alwaysAllow: ['read'], disabledTools: ['write'] });
  });

  it('skips entries it cannot use and says why', () => {
    const parsed = parseMcpImport(JSON.stringify({ mcpServers: { a: { args: ['x'] }, b: 'npx thing', c: { command: 'x', args: 'not a list' }, d: { command: 'x', env: { N: { nested: true } } } } }));
    expect(parsed.servers).toEqual([]);
    expect(parsed.skipped).toEqual([
      { name: 'a', reason: 'it has neither a "command" nor a "url"' },
      { name: 'b', reason: 'its entry is not an object' },
      { name: 'c', reason: '"args" is not a list of strings' },
      { name: 'd', reason: '"env.N" is not a string' },
    ]);
  });

  it('refuses a file that is not JSON or has no servers, saying what was expected', () => {
    expect(() => parseMcpImport('{ nope')).toThrow(/The file is not JSON/);
    expect(() => parseMcpImport('{"models": []}')).toThrow('The file has no "mcpServers" object (the format Claude Desktop, Cursor and others use).');
  });
});
