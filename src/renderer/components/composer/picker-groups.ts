/**
 * What the model picker lists, grouped by connection: the active connection's aliases and models (a
 * materialized alias's Ollama copy is the alias, so `name` and `name:latest` are not listed twice), then the
 * aliases of other connections, which cannot be used until their connection is the active one. Pure.
 */
import { connectionName, type ConnectionInfo } from '../../../shared/connections';
import type { ModelSummary } from '../../../shared/ipc';
import type { Alias } from '../../../shared/models';
import { aliasRef } from '../../../shared/model-ref';

export interface PickerEntry {
  /** What is sent as the model: a model's name, or `alias:<id>` for an alias (never the same as a model's). */
  value: string;
  label: string;
  /** The model under an alias. */
  target?: string;
  kind: 'model' | 'alias';
  capabilities: string[];
  detail: string | null;
  /** Why it cannot be chosen now; absent when it can. */
  disabled?: string;
}

export interface PickerGroup {
  id: string;
  label: string;
  entries: PickerEntry[];
}

/** Capabilities the picker names; the rest (completion, insert...) say nothing a user chooses by. */
const SHOWN = ['vision', 'tools', 'thinking'];

export function capabilityList(model: ModelSummary | undefined): string[] {
  return (model?.capabilities ?? []).filter((c) => SHOWN.includes(c));
}

/** `coder` and `coder:latest` are one Ollama model. */
export function sameOllamaName(a: string, b: string): boolean {
  const plain = (n: string) => (n.endsWith(':latest') ? n.slice(0, -':latest'.length) : n);
  return plain(a) === plain(b);
}

export function pickerGroups(models: ModelSummary[], aliases: Alias[], connections: ConnectionInfo[], activeId: string): PickerGroup[] {
  const labelOf = (id: string) => connections.find((c) => c.id === id)?.label;
  const mine = aliases.filter((a) => a.connectionId === activeId);
  const materialized = mine.filter((a) => a.materializedDigest !== null);
  const aliasEntry = (a: Alias, disabled?: string): PickerEntry => {
    const model = models.find((m) => m.name === a.model);
    return { value: aliasRef(a.id), label: a.name, target: a.model, kind: 'alias', capabilities: capabilityList(model), detail: `alias of ${a.model}`, ...(disabled ? { disabled } : {}) };
  };
  const active: PickerGroup = {
    id: activeId,
    label: labelOf(activeId) ?? 'Models',
    entries: [
      ...mine.map((a) => aliasEntry(a, missingModel(a, models))),
      ...models
        .filter((m) => !materialized.some((a) => sameOllamaName(a.name, m.name)))
        .map((m) => ({ value: m.name, label: m.name, kind: 'model' as const, capabilities: capabilityList(m), detail: m.parameterSize })),
    ],
  };
  const others = new Map<string, PickerGroup>();
  for (const a of aliases) {
    if (a.connectionId === activeId) continue;
    const label = labelOf(a.connectionId);
    const group = others.get(a.connectionId) ?? { id: a.connectionId, label: label ? `${label} (not active)` : 'A removed connection', entries: [] };
    group.entries.push(aliasEntry(a, label ? `Its connection, ${label}, is not the active one: choose it in Settings → Connections.` : 'Its connection was removed.'));
    others.set(a.connectionId, group);
  }
  return [active, ...others.values()].filter((g) => g.entries.length > 0);
}

/**
 * Why an alias of the active connection cannot answer: its model is no longer on the server (an empty list says
 * nothing: the server is down or has no models, and the screen says that). A materialized alias in sync answers
 * under its own Ollama copy.
 */
export function missingModel(a: Alias, models: ModelSummary[]): string | undefined {
  if (models.length === 0) return undefined;
  if (models.some((m) => sameOllamaName(m.name, a.model))) return undefined;
  if (a.materializedDigest !== null && a.status === 'in-sync' && models.some((m) => sameOllamaName(m.name, a.name))) return undefined;
  return `Its model, ${a.model}, is not ${a.connectionId === 'builtin' ? 'in the models folder' : 'on this server'} any more: edit the alias in Models.`;
}

/** Entries whose name (or alias target) contains the query, case-insensitively; groups left empty are dropped. */
export function filterGroups(groups: PickerGroup[], query: string): PickerGroup[] {
  const q = query.trim().toLowerCase();
  if (q === '') return groups;
  return groups
    .map((g) => ({ ...g, entries: g.entries.filter((e) => e.label.toLowerCase().includes(q) || (e.target?.toLowerCase().includes(q) ?? false)) }))
    .filter((g) => g.entries.length > 0);
}

/**
 * What the picker and the composer say when there is no model to choose: where models come from for the active
 * connection and, when it is not the built-in engine, that GGUF files are chatted with through Built-in. On a first
 * start the active connection is Ollama; a GGUF added in Models is listed there but not here until Built-in is
 * the active connection, so "add one in Models" alone sent the user round in a circle (first-hour audit F1).
 * `ggufs`: the usable files in the models folder, null while unknown.
 */
export function noModelsHint(
  active: Pick<ConnectionInfo, 'kind' | 'label'> | undefined,
  ggufs: number | null,
  failed: boolean | 'unreachable' | 'answered' = false,
): string {
  if (active?.kind === 'builtin') return 'No GGUF files in the models folder yet: add or download one in Models.';
  // Named as the banner above names it (shared connectionName): the user's name for it, else its kind.
  const label = active ? connectionName(active) : 'this connection';
  const unreachable = failed !== false;
  // A server that cannot be reached was met with "pull a model" or "add a GGUF", away from the problem the banner
  // above named (real-engines audit D1): the way back to it comes first. A server that answered but listed nothing
  // (an HTTP error, a server of another kind) is running: "start it" under a banner that says why the list failed
  // sent the user to start what was already started.
  const from = !unreachable
    ? `No models from ${label}.`
    : failed === 'answered'
      ? `${label} answered but did not list its models (the message above says why): check its address and kind in Settings → Connections.`
      : `${label} cannot be reached: start it, or change its address in Settings → Connections.`;
  const builtin = 'choose Built-in (llama.cpp) in Settings → Connections';
  if (ggufs !== null && ggufs > 0) {
    return `${from} Your models folder has ${ggufs === 1 ? 'a GGUF file' : `${ggufs} GGUF files`}: to chat with ${ggufs === 1 ? 'it' : 'them'}, ${builtin}.`;
  }
  if (unreachable) return `${from} Or add a GGUF file in Models and ${builtin}.`;
  const pull = active?.kind === 'ollama' ? 'Pull a model in Models, or add' : 'Add';
  return `${from} ${pull} a GGUF file in Models and ${builtin}.`;
}
