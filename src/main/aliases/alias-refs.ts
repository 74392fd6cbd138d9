/**
 * Model references as the picker sends them: `alias:<id>` for an alias (shared/model-ref.ts), a model by its name.
 * Keyed by id, an alias that shares a model's name cannot take that model's place (models audit #1), and a
 * renamed alias keeps its chats (#6).
 */
import type { Alias } from '../../shared/models';
import { aliasIdOf } from '../../shared/model-ref';
import { aliasRoute, type AliasLayer } from './alias-route';
import type { AliasStore } from './alias-store';

export interface AliasRefs {
  /** The alias a reference names, where it still exists. */
  of(model: string): Alias | undefined;
  /** How a message under the reference reaches the engine; undefined for a model's name. */
  route(model: string): AliasLayer | undefined;
  /** What an answer under the reference is labelled with: an alias's name and id (kept beside it). */
  named(model: string): { id: string; name: string } | undefined;
  /** What a reference is called in a chat: an alias's name, or the model's. */
  label(model: string): string;
}

export function aliasRefs(aliases: AliasStore): AliasRefs {
  const of = (model: string) => {
    const id = aliasIdOf(model);
    return id === undefined ? undefined : (aliases.get(id) ?? undefined);
  };
  return {
    of,
    route: (model) => {
      const alias = of(model);
      return alias ? aliasRoute(alias) : undefined;
    },
    named: (model) => {
      const alias = of(model);
      return alias ? { id: alias.id, name: alias.name } : undefined;
    },
    label: (model) => of(model)?.name ?? model,
  };
}
