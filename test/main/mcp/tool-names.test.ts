/** Issue 19: a tool is offered under its own name when that is unique among enabled tools, else as `server_tool`. */
import { describe, expect, it } from 'vitest';
import { offeredNames, wireSafe } from '../../../src/main/mcp/tool-names';

const BUILTIN = ['read_document', 'fetch_url', 'current_datetime'];

describe('offered tool names', () => {
  it('keeps a unique name as it is', () => {
    expect(offeredNames(BUILTIN, [{ server: 'files', tool: 'read_text_file' }, { server: 'everything', tool: 'echo' }])).toEqual(['read_text_file', 'echo']);
  });

  it('prefixes every tool of a name two servers share with its server', () => {
    const names = offeredNames(BUILTIN, [
      { server: 'notes', tool: 'search' },
      { server: 'web', tool: 'search' },
      { server: 'web', tool: 'open' },
    ]);
    expect(names).toEqual(['notes_search', 'web_search', 'open']);
  });

  it('never renames a built-in tool: the MCP tool that collides with one is prefixed', () => {
    expect(offeredNames(BUILTIN, [{ server: 'browser', tool: 'fetch_url' }])).toEqual(['browser_fetch_url']);
  });

  it('makes names every dialect accepts, and keeps apart servers whose names clean up the same', () => {
    expect(wireSafe('files.read file/v2')).toBe('files_read_file_v2');
    expect(wireSafe('x'.repeat(80))).toHaveLength(64);
    const names = offeredNames([], [
      { server: 'my server', tool: 'get' },
      { server: 'my.server', tool: 'get' },
    ]);
    expect(names).toEqual(['my_server_get', 'my_server_get_2']);
    expect(names.every((n) => /^[A-Za-z0-9_-]{1,64}$/.test(n))).toBe(true);
  });

  it('a tool whose own name is another tool’s prefixed name still gets a name of its own', () => {
    const names = offeredNames([], [
      { server: 'a', tool: 'x' },
      { server: 'b', tool: 'x' },
      { server: 'c', tool: 'a_x' },
    ]);
    expect(new Set(names).size).toBe(3);
    expect(names.slice(0, 2)).toEqual(['a_x', 'b_x']);
  });
});
