/**
 * What the composer sends as "the model": a model's own name, or `alias:<id>` for an alias. An alias may share
 * its name with a model of its connection (made before that was refused, or a model pulled later): keyed by id,
 * picking the model reaches the model, and an alias renamed since keeps its chats (models audit #1, #6).
 */
import type { JsonObject } from './json';
import type { Alias } from './models';

const PREFIX = 'alias:';

export function aliasRef(id: string): string {
  return `${PREFIX}${id}`;
}

/** The alias id a reference names; undefined for a model's name. */
export function aliasIdOf(ref: string): string | undefined {
  return ref.startsWith(PREFIX) && ref.length > PREFIX.length ? ref.slice(PREFIX.length) : undefined;
}

/** The alias a reference names, where it still exists. */
export function aliasOfRef(ref: string | null | undefined, aliases: readonly Alias[]): Alias | undefined {
  if (!ref) return undefined;
  const id = aliasIdOf(ref);
  return id === undefined ? undefined : aliases.find((a) => a.id === id);
}

/** What a reference is called on screen: the alias's name, or the model's. */
export function refLabel(ref: string, aliases: readonly Alias[]): string {
  return aliasOfRef(ref, aliases)?.name ?? (aliasIdOf(ref) !== undefined ? 'a deleted alias' : ref);
}

/** A model or alias name as the picker offers it: an alias's name becomes its reference (settings kept names). */
export function refFor(name: string, models: readonly { name: string }[], aliases: readonly Alias[]): string {
  if (aliasIdOf(name) !== undefined || models.some((m) => m.name === name)) return name;
  const alias = aliases.find((a) => a.name === name);
  return alias ? aliasRef(alias.id) : name;
}

/**
 * The alias an answer was written under: by the id it keeps (followed through a rename), or, for an answer from
 * before ids were kept, by its name where no model has that name. Undefined for a model's answer or a deleted alias.
 */
export function answeredAlias(turn: { model?: string | undefined; meta: JsonObject }, aliases: readonly Alias[], models: readonly { name: string }[]): Alias | undefined {
  const id = turn.meta['aliasId'];
  if (typeof id === 'string') return aliases.find((a) => a.id === id);
  const name = turn.model;
  if (name === undefined || models.some((m) => m.name === name)) return undefined;
  return aliases.find((a) => a.name === name);
}

/** What to pick again for an answer (its alias's reference, or its model's name); undefined when it names none. */
export function answeredRef(turn: { model?: string | undefined; meta: JsonObject }, aliases: readonly Alias[], models: readonly { name: string }[]): string | undefined {
  const alias = answeredAlias(turn, aliases, models);
  if (alias) return aliasRef(alias.id);
  return typeof turn.meta['aliasId'] === 'string' ? undefined : turn.model;
}
