/**
 * Round 6, durability: serve mode started with --ollama (or --models-dir) on a full disk ended with "Firebrand could
 * not start: database or disk is full": saving the flag was the first write of the start, where without the flag
 * it opened the chats. The flag is used for this run, unsaved, and saved by the next start with room.
 */
import { describe, expect, it } from 'vitest';
import { SettingsStore } from '../../../src/main/db/settings-store';
import { memoryDb } from './helpers';

describe('settings given on the command line, on a full disk', () => {
  it('are used for this run though they cannot be saved, and saved once there is room', () => {
    const db = memoryDb();
    // The disk "fills": no page may be added, and the settings' page has no room left for another row.
    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
    const pad = db.prepare('INSERT INTO settings (key, value) VALUES (?, ?)');
    let i = 0;
    for (const size of [200, 40, 8, 1]) {
      expect(() => {
        for (;;) pad.run(`pad-${i++}`, JSON.stringify('x'.repeat(size)));
      }).toThrow(/full/);
    }
    const settings = new SettingsStore(db);
    expect(settings.useForThisRun({ ollamaUrl: 'http://gpu-box:11434', modelsDir: '/srv/models' })).toBe(false);
    expect(settings.get()).toMatchObject({ ollamaUrl: 'http://gpu-box:11434', modelsDir: '/srv/models' });
    expect(db.prepare("SELECT count(*) AS n FROM settings WHERE key IN ('ollamaUrl', 'modelsDir')").get()).toEqual({ n: 0 });

    db.pragma('max_page_count = 1073741823');
    expect(settings.useForThisRun({ ollamaUrl: 'http://gpu-box:11434' })).toBe(true);
    // Saved now: a later change in Settings wins over the value kept for the run.
    settings.update({ ollamaUrl: 'http://other:11434' });
    expect(settings.get().ollamaUrl).toBe('http://other:11434');
    expect(new SettingsStore(db).get().ollamaUrl).toBe('http://other:11434');
    // The other flag, never saved, is still used for this run.
    expect(settings.get().modelsDir).toBe('/srv/models');
  });

  it('any other failure (a bad address) is thrown, as before', () => {
    expect(() => new SettingsStore(memoryDb()).useForThisRun({ ollamaUrl: 'not a url' })).toThrow();
  });
});
