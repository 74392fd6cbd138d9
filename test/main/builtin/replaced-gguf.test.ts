/**
 * A GGUF replaced under the same name answers with the new file (builtin audit #1). The engine kept its loaded
 * model (and its tokenizer) by path only: a file deleted and copied anew kept answering with the old weights, and
 * one overwritten in place (a `cp` over it, a re-download) answered blank, from a mapping of a file rewritten under
 * it. Either way the request record named the new file's sha256, not what answered.
 */
import { copyFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StepStore } from '../../../src/main/db/step-store';
import { sha256File } from '../../../src/main/library/file-digest';
import type { Services } from '../../../src/main/services';
import { turnText } from '../../../src/shared/turn';
import { generateScriptedModel } from '../../support/scripted-gguf/generate';
import { PLAIN_ANSWER, SCRIPTS } from '../../support/scripted-gguf/scripts';
import { ask, builtinServices, cleanup, dataDirWith } from './helpers';

const RAIN = 'It rains in Lyon tonight.';
const SNOW = 'Snow is falling on Oslo.';

let dir: string;
let services: Services;

beforeAll(() => {
  dir = dataDirWith({ model: SCRIPTS.plain });
  services = builtinServices(dir);
});
afterAll(() => cleanup(services, dir));

/** The last answer's text and the sha256 its request record names. */
async function answerAndRecord(text: string): Promise<{ answer: string; sha256: unknown }> {
  const { turns } = await ask(services, 'model.gguf', text);
  const answer = turns.at(-1)!;
  expect(answer.status).toBe('done');
  const steps = new StepStore(services.db, () => undefined);
  const step = steps.listForTurn(answer.id).at(-1)!;
  const body = JSON.parse(new TextDecoder().decode(steps.rehydrateBody(step.requestDigest))) as { model_file?: { sha256?: unknown } };
  return { answer: turnText(answer).trim(), sha256: body.model_file?.sha256 };
}

describe('built-in engine: a GGUF replaced under the same name', () => {
  it('answers with the new file, whether it was deleted and copied anew or overwritten in place', async () => {
    const path = join(dir, 'models', 'model.gguf');
    expect((await answerAndRecord('Weather?')).answer).toBe(PLAIN_ANSWER);

    // Deleted, and another file copied under its name: a new inode.
    rmSync(path);
    copyFileSync(generateScriptedModel({ name: 'rain', text: RAIN }), path);
    const rain = await answerAndRecord('And now?');
    expect(rain.answer).toBe(RAIN);
    expect(rain.sha256).toBe(await sha256File(path));

    // Overwritten in place: the same inode, rewritten under the loaded model.
    copyFileSync(generateScriptedModel({ name: 'snow', text: SNOW }), path);
    const snow = await answerAndRecord('And later?');
    expect(snow.answer).toBe(SNOW);
    expect(snow.sha256).toBe(await sha256File(path));
  }, 120_000);
});
