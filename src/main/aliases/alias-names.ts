/**
 * An alias may not take the name of a model of its own connection (models audit #1): the picker would offer two
 * entries of one name, and the model would be out of reach behind the alias. `coder` and `coder:latest` are one
 * Ollama model, so both spellings clash.
 */
import type { Alias } from '../../shared/models';
import { UserFacingError } from '../errors';

const plain = (name: string) => (name.endsWith(':latest') ? name.slice(0, -':latest'.length) : name);

/** The model of `models` that `name` would hide, if any. An alias's own Ollama copy (materialized) is not a clash. */
export function clashingModel(name: string, models: readonly string[], own?: Pick<Alias, 'name' | 'materializedDigest'>): string | undefined {
  const twin = own && own.materializedDigest !== null ? plain(own.name) : undefined;
  return models.find((m) => plain(m) === plain(name) && plain(m) !== twin);
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
