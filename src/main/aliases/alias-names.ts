/**
 * An alias may not take the name of a model of its own connection (models audit #1): the picker would offer two
 * entries of one name, and the model would be out of reach behind the alias. `coder` and `coder:latest` are one
 * Ollama model, and so are `Qwen3:8B` and `qwen3:8b` (Ollama compares names without case; the second models audit
 * #1: "Create in Ollama" of such an alias wrote over the user's model), so all those spellings clash.
 */
import { sameOllamaModelName, type Alias } from '../../shared/models';
import { UserFacingError } from '../errors';

/** The model of `models` that `name` would hide, if any. An alias's own Ollama copy (materialized) is not a clash. */
export function clashingModel(name: string, models: readonly string[], own?: Pick<Alias, 'name' | 'materializedDigest'>): string | undefined {
  const twin = own && own.materializedDigest !== null ? own.name : undefined;
  return models.find((m) => sameOllamaModelName(m, name) && !(twin !== undefined && sameOllamaModelName(m, twin)));
}

/** Refuses a name that is a model on the alias's connection, in words the editor shows as they are. */
export function refuseClash(name: string, models: readonly string[] | null, connectionLabel: string, own?: Pick<Alias, 'name' | 'materializedDigest'>): void {
  if (models === null) return;
  const model = clashingModel(name, models, own);
  if (model === undefined) return;
  throw new UserFacingError(
    'invalid-payload',
    `“${name}” is already the name of a model on ${connectionLabel} (${model}): an alias of that name would hide it. Choose another name.`,
  );
}

/**
 * Refuses a name that another alias has in another spelling (`Helper` beside `helper`, models audit #1): both would
 * be one model once created in Ollama, each "Create in Ollama" writing over the other. The same spelling is left to
 * the table's UNIQUE constraint, whose refusal says "already exists".
 */
export function refuseAliasTwin(name: string, others: readonly Pick<Alias, 'name'>[]): void {
  const twin = others.find((a) => a.name !== name && sameOllamaModelName(a.name, name));
  if (twin === undefined) return;
  throw new UserFacingError(
    'invalid-payload',
    `An alias named “${twin.name}” already exists, and to Ollama “${name}” is the same name. Choose another name.`,
  );
}
