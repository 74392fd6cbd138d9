/**
 * The llama-server preflight (issue 13): the server's exact count decides, a refusal is only made on a window
 * read just now, and without a count the calibrated estimate stands.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { AssembleInput } from '../../../src/main/engine/assemble';
import { Calibration } from '../../../src/main/engine/calibration';
import { preflight } from '../../../src/main/engine/server-preflight';
import { getDialect } from '../../../src/main/dialects/registry';
import type { ModelCapabilities } from '../../../src/main/engine/types';
import type { Turn } from '../../../src/shared/turn';

function input(caps: ModelCapabilities, text = 'Hello there'): AssembleInput {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
  const user: Turn = { id: 'u', conversationId: 'c', parentId: null, role: 'user', blocks: [{ type: 'text', text }], meta: {}, status: 'done', createdAt: 0 };
  return {
    connection: { id: 'ls', kind: 'llama-server', label: 'llama-server', baseUrl: 'http://127.0.0.1:1', dialect: getDialect('openai'), authHeaders: () => ({}) },
    model: 'm',
    branch: [user],
    layers: [],
    caps,
    tools: [],
    calibration: new Calibration(db),
  };
}

const never = () => Promise.reject(new Error('not asked'));

describe('the llama-server preflight', () => {
  it('sends with the exact count as the estimate, and learns the ratio from it', async () => {
    const i = input({ serverContext: 4096 });
    const a = await preflight(i, { freshCaps: never, count: () => Promise.resolve(70) });
    expect(a).toMatchObject({ kind: 'send', estimate: 70, window: 4096 });
    expect(i.calibration.ratio('m')).toBeGreaterThan(5);
  });

  it('refuses on the exact count, after reading the window anew, saying the server counted it', async () => {
    let asked = 0;
    const a = await preflight(input({ serverContext: 4096 }), { freshCaps: () => (asked++, Promise.resolve({ serverContext: 2048 })), count: () => Promise.resolve(5000) });
    expect(asked).toBe(1);
    expect(a).toMatchObject({ kind: 'refused', meta: { estimate: 5000, window: 2048, counted: 'server' } });
  });

  it('sends what the estimate would refuse when the server, restarted larger, has room for it', async () => {
    const long = 'x'.repeat(40_000); // ~10,000 by the estimate
    const a = await preflight(input({ serverContext: 4096 }, long), { freshCaps: () => Promise.resolve({ serverContext: 32_768 }), count: () => Promise.resolve(10_050) });
    expect(a).toMatchObject({ kind: 'send', estimate: 10_050, window: 32_768 });
  });

  it('keeps the estimate when the server cannot count', async () => {
    const a = await preflight(input({ serverContext: 4096 }), { freshCaps: never, count: () => Promise.resolve(undefined) });
    expect(a.kind).toBe('send');
    expect(a.kind === 'send' && a.estimate).toBeLessThan(50);
  });
});
