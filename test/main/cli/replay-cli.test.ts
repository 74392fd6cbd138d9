import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repoRoot = path.resolve(__dirname, '../../..');
const tsx = path.join(repoRoot, 'node_modules/.bin/tsx');

async function replay(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(tsx, ['src/main/cli/replay.ts', ...args], { cwd: repoRoot });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: err.code ?? -1, stdout: err.stdout ?? '', stderr: err.stderr ?? '' };
  }
}

const KEYS = ['dialect', 'wire_reason', 'stop', 'error', 'reasoning', 'content', 'runs', 'tool_calls', 'invalid_calls', 'usage'];

describe('replay CLI (subprocess)', () => {
  it('prints one JSON object of the documented shape and exits 0', async () => {
    const r = await replay('../shared/conformance/llama-server/c-toolcall-stream-deepseek.sse', '--chunk', 'random:7', '--tools', 'test/fixtures/openai/tools.json');
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(KEYS);
    expect(out).toMatchObject({ dialect: 'openai', stop: 'tool_use', tool_calls: [{ name: 'get_weather', arguments: { city: 'Paris' } }], usage: { input_tokens: 761, output_tokens: 10 } });
  });

  it('exits 0 for error and cut streams too', async () => {
    const err = await replay('test/fixtures/openai/error-after-tokens.sse', '--dialect', 'openai', '--chunk', '3');
    expect(err.code).toBe(0);
    expect(JSON.parse(err.stdout)).toMatchObject({ stop: 'error', error: 'slot context shift failed' });
    const cut = await replay('test/fixtures/openai/no-terminal-frame.sse');
    expect(cut.code).toBe(0);
    expect(JSON.parse(cut.stdout)).toMatchObject({ stop: 'cut' });
  });

  it('honours --think-open', async () => {
    const r = await replay('test/fixtures/openai/think-open-template.sse', '--think-open', '--chunk', '1');
    expect(JSON.parse(r.stdout)).toMatchObject({ reasoning: 'The user wants the weather.', content: 'It is sunny in Paris.' });
  });

  it('exits 2 with a message for an unreadable file, an unknown dialect, an undetectable body, bad options', async () => {
    const cases = [
      ['does/not/exist.sse'],
      ['test/fixtures/openai/no-terminal-frame.sse', '--dialect', 'gemini'],
      ['test/fixtures/openai/tools.json'],
      ['test/fixtures/openai/no-terminal-frame.sse', '--chunk', 'zero'],
      [],
    ];
    // In parallel: each subprocess pays tsx's start-up.
    const results = await Promise.all(cases.map((args) => replay(...args)));
    results.forEach((r, i) => {
      expect(r.code, cases[i]?.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^replay: /);
    });
  });
});
