/**
 * Round 7, engine #3: an alias edited in two windows or tabs: the last Save won, over what the other had saved
 * (the page only warned). Main now refuses a save based on a version saved since (`basedOn`, the `updatedAt` the
 * edit began from), with code `conflict`, and saves nothing; the page then shows both and lets the user choose.
 */
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { AliasStore } from '../../../src/main/aliases/alias-store';
import { MIGRATIONS } from '../../../src/main/db/migrations';
import { migrate } from '../../../src/main/db/open-database';
import { UserFacingError } from '../../../src/main/errors';
import { createModelHandlers } from '../../../src/main/models/model-handlers';
import type { AliasInput } from '../../../src/shared/models';

const SMALL: AliasInput = { name: 'small', connectionId: 'ollama', model: 'llama3.2:3b', systemPrompt: '', parameters: {}, thinkMode: 'off', contextWindow: null };

function database() {
  const db = new BetterSqlite3(':memory:');
  migrate(db, MIGRATIONS);
  return db;
}

describe('an alias saved from two tabs', () => {
  it('refuses the save based on a version saved since, saves nothing, and takes one based on the current version', async () => {
    const h = createModelHandlers({ db: database(), baseUrl: () => 'http://127.0.0.1:9', emit: () => undefined, newId: () => 'a1', log: () => {} });
    const begun = await h.handlers['aliases:create'](SMALL);
    // Tab A saves first, from the same version tab B began from.
    const a = await h.handlers['aliases:update']({ id: begun.id, alias: { ...SMALL, systemPrompt: 'Be brief.' }, basedOn: begun.updatedAt });
    const b = Promise.resolve().then(() => h.handlers['aliases:update']({ id: begun.id, alias: { ...SMALL, systemPrompt: 'Answer in French.' }, basedOn: begun.updatedAt }));
    await expect(b).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('was saved in another window or tab') as unknown });
    expect((await h.handlers['aliases:list']({}))[0]?.systemPrompt).toBe('Be brief.');
    // "Keep mine": saved over theirs, knowingly (based on the version tab A saved).
    const kept = await h.handlers['aliases:update']({ id: begun.id, alias: { ...SMALL, systemPrompt: 'Answer in French.' }, basedOn: a.updatedAt });
    expect(kept.systemPrompt).toBe('Answer in French.');
    // Without `basedOn` (an older page), a save is as before: unconditional.
    expect((await h.handlers['aliases:update']({ id: begun.id, alias: SMALL })).systemPrompt).toBe('');
    h.close();
  });

  it('moves the version on with every save, even two in one millisecond', () => {
    const store = new AliasStore(database(), () => 'a1', () => 5_000);
    const made = store.create(SMALL);
    const first = store.update(made.id, { ...SMALL, systemPrompt: 'one' }, made.updatedAt);
    expect(first.updatedAt).toBeGreaterThan(made.updatedAt);
    expect(() => store.update(made.id, { ...SMALL, systemPrompt: 'two' }, made.updatedAt)).toThrow(UserFacingError);
    expect(store.require(made.id).systemPrompt).toBe('one');
    expect(store.renameModel('ollama', 'llama3.2:3b', 'llama3.2:3b-q8')).toBe(1);
    expect(() => store.update(made.id, { ...SMALL, systemPrompt: 'three' }, first.updatedAt)).toThrow(/another window or tab/);
  });
});
