/**
 * What the alias editor says of a name that would clash, before main is asked (main refuses it too: alias-names.ts).
 * Ollama compares names without case and takes `coder` for `coder:latest` (models audit #1: an alias `Qwen3:8B`
 * beside the model `qwen3:8b` was saved, and its "Create in Ollama" wrote over that model).
 */
import { sameOllamaModelName, type Alias } from '../../../shared/models';

/**
 * `editing`: the alias being edited, if any; its own Ollama copy (materialized) is not a clash, nor is the alias
 * itself, nor a name it keeps as it was.
 */
export function aliasNameProblem(
  name: string,
  models: readonly { name: string }[],
  aliases: readonly Pick<Alias, 'id' | 'name'>[],
  editing: Pick<Alias, 'id' | 'name' | 'materializedDigest'> | null,
): string | null {
  const hidden = models.find((m) => sameOllamaModelName(m.name, name) && !(editing?.materializedDigest && sameOllamaModelName(m.name, editing.name)));
  if (hidden) return `“${name}” is already the name of a model here (${hidden.name}): an alias of that name would hide it. Choose another name.`;
  if (editing !== null && editing.name === name) return null;
  const twin = aliases.find((a) => a.id !== editing?.id && a.name !== name && sameOllamaModelName(a.name, name));
  if (twin) return `An alias named “${twin.name}” already exists, and to Ollama “${name}” is the same name. Choose another name.`;
  return null;
}
