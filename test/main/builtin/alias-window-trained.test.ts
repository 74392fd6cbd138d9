/**
 * Builtin audit #5: an alias of a GGUF was saved asking for 1,000,000 tokens of long.gguf (trained for 32,768), and
 * the engine allocated them (2.2 GiB for a 2.5 MiB model), while the Models row refuses a window past the trained
 * context for the model itself. Such an alias is now refused at save in the row's words, and one saved before runs
 * with the trained context (the meter, the request record and the engine's load agree).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AliasStore } from '../../../src/main/aliases/alias-store';
import { StepStore } from '../../../src/main/db/step-store';
import type { Services } from '../../../src/main/services';
import { aliasRef } from '../../../src/shared/model-ref';
import type { AliasInput } from '../../../src/shared/models';
import { turnText } from '../../../src/shared/turn';
import { PLAIN_ANSWER, SCRIPTS } from '../../support/scripted-gguf/scripts';
import { ask, builtinServices, cleanup, dataDirWith } from './helpers';

let dir: string;
let services: Services;

beforeAll(() => {
  // plain.gguf says it was trained for 4,096 tokens.
  dir = dataDirWith({ plain: SCRIPTS.plain });
  services = builtinServices(dir);
});
afterAll(() => cleanup(services, dir));

const alias = (name: string, contextWindow: number | null): AliasInput => ({ name, connectionId: 'builtin', model: 'plain.gguf', systemPrompt: '', parameters: {}, thinkMode: 'off', contextWindow });

describe('an alias of a GGUF asking for more than the model was trained for', () => {
  it('is refused at save, naming the trained context, and kept at or under it', async () => {
    const refusal = 'plain.gguf was trained for a context of 4,096 tokens, so a 1,000,000-token window is more than it can use. Keep 4,096 or less.';
    await expect(Promise.resolve(services.handlers['aliases:create'](alias('bigwin', 1_000_000)))).rejects.toThrow(refusal);
    const saved = await services.handlers['aliases:create'](alias('fits', 4096));
    const id = saved.id;
    await expect(Promise.resolve(services.handlers['aliases:update']({ id, alias: alias('fits', 1_000_000) }))).rejects.toThrow(refusal);
    expect((await services.handlers['aliases:list']({})).map((a) => [a.name, a.contextWindow])).toEqual([['fits', 4096]]);
  });

  it('saved before, runs with the trained context: the meter, the request record and the engine say so', async () => {
    const old = new AliasStore(services.db, randomUUID).create(alias('oldwide', 1_000_000));
    const ref = aliasRef(old.id);
    const choice = await services.handlers['models:context-window']({ model: ref });
    expect(choice).toMatchObject({ contextWindow: 4096, source: 'alias', reason: 'The alias asks for 1,000,000 tokens, but plain.gguf was trained for 4,096: it runs with 4,096.' });
    const { turns } = await ask(services, ref, 'Weather?');
    const answer = turns.at(-1)!;
    expect(turnText(answer)).toBe(PLAIN_ANSWER);
    expect(new StepStore(services.db, () => undefined).listForTurn(answer.id).at(-1)?.contextWindow).toBe(4096);
    const status = await services.handlers['builtin:status']({});
    expect(status.loaded.map((l) => [l.file, l.contextSize])).toEqual([['plain.gguf', 4096]]);
  });
});
