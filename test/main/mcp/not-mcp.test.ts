/**
 * The words for a program that printed something other than MCP's messages (mcpstart #1), and the line of a crash's
 * stderr that is quoted: what the user reads in Settings → Tools.
 */
import { describe, expect, it } from 'vitest';
import { LogTail } from '../../../src/main/mcp/log-tail';
import { printedNoise, printedWords, readableLine } from '../../../src/main/mcp/not-mcp';

describe('what a program printed, in words', () => {
  it('quotes the first lines without colours or control characters, cut, and counts the rest', () => {
    expect(readableLine('\u001b[1;32m  Ready  \u001b[0m\t(v2)')).toBe('Ready (v2)');
    expect(readableLine('x'.repeat(200))).toBe(`${'x'.repeat(120)}…`);
    expect(printedWords(['one'], 1)).toBe('“one”');
    expect(printedWords(['one', 'two'], 2)).toBe('“one” and “two”');
    expect(printedWords(['one', 'two', 'three', 'four', 'five'], 9)).toBe('“one”, “two”, “three” and 6 more lines');
  });

  it('says bytes that are not text instead of quoting them', () => {
    expect(readableLine('\u0089PNG\r\n\u001a\n\u0000\u0000\u0000\rIHDR')).toBeNull();
    expect(printedWords(['\ufffd\ufffd\u0000\u0001'], 1)).toBe('bytes that are not text');
    // A readable line among them is quoted; the bytes count as lines.
    expect(printedWords(['\ufffd\ufffd\u0000\u0001', 'Server v1'], 2)).toBe('“Server v1” and 1 more line');
  });

  it('an unended line counts unless it may be the start of a message', () => {
    expect(printedNoise([], 'Password: ')).toBe(true);
    expect(printedNoise([], '{"jsonrpc":"2.0","id":0,"res')).toBe(false);
    expect(printedNoise([], '')).toBe(false);
  });
});

describe('the stderr line quoted for a crash', () => {
  it('is the exception, not the version line Node prints after the stack, nor a Python traceback’s frame', () => {
    const node = new LogTail();
    node.append('[eval]:1\nthrow new TypeError("config.apiKey is undefined")\n^\n\nTypeError: config.apiKey is undefined\n    at [eval]:1:7\n    at runScriptInThisContext (node:internal/vm:209:10)\n\nNode.js v22.1.0\n');
    expect(node.tellingLine()).toBe('TypeError: config.apiKey is undefined');
    const python = new LogTail();
    python.append('Traceback (most recent call last):\n  File "/srv/notes/server.py", line 3, in <module>\n    import fastmcp\nModuleNotFoundError: No module named \'fastmcp\'\n');
    expect(python.tellingLine()).toBe("ModuleNotFoundError: No module named 'fastmcp'");
  });
});
