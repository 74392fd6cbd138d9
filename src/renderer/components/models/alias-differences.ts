/**
 * What differs between two versions of an alias, field by field, in words: a save refused because another window or
 * tab saved the alias first shows what the other saved beside what is in the form (round 7, engine #3).
 */
import type { AliasInput } from '../../../shared/models';

export interface AliasDifference {
  field: string;
  theirs: string;
  mine: string;
}

const params = (p: AliasInput['parameters']): string =>
  Object.entries(p)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k} ${String(v)}`)
    .join(', ') || 'none';

const FIELDS: { field: string; show: (a: AliasInput) => string }[] = [
  { field: 'Name', show: (a) => a.name },
  { field: 'Model', show: (a) => a.model },
  { field: 'System prompt', show: (a) => a.systemPrompt || '(none)' },
  { field: 'Parameters', show: (a) => params(a.parameters) },
  { field: 'Think', show: (a) => a.thinkMode },
  { field: 'Context', show: (a) => (a.contextWindow === null ? 'the model’s own' : `${a.contextWindow.toLocaleString('en-US')} tokens`) },
];

/** The fields where `theirs` (saved elsewhere) and `mine` (the form) differ, in the form's order. */
export function aliasDifferences(theirs: AliasInput, mine: AliasInput): AliasDifference[] {
  return FIELDS.map(({ field, show }) => ({ field, theirs: show(theirs), mine: show(mine) })).filter((d) => d.theirs !== d.mine);
}
