import { useState } from 'react';
import { ALIAS_NAME_PATTERN, ALIAS_NAME_RULE, type Alias, type AliasInput, type AliasParameters, type ThinkMode } from '../../../shared/models';
import { aliasDraftFrom, deleteAlias, materializeAlias, saveAlias, useModelsStore } from '../../store/models-slice';
import { useStore } from '../../store';
import { AutoCompactSelect } from '../context/AutoCompactSelect';

const PARAMS: { key: keyof AliasParameters; label: string; integer: boolean }[] = [
  { key: 'temperature', label: 'Temperature', integer: false },
  { key: 'top_p', label: 'Top p', integer: false },
  { key: 'top_k', label: 'Top k', integer: true },
  { key: 'num_predict', label: 'Max tokens', integer: true },
  { key: 'repeat_penalty', label: 'Repeat penalty', integer: false },
  { key: 'seed', label: 'Seed', integer: true },
];
const STATUS: Record<Alias['status'], string> = {
  'not-materialized': 'only in Firebrand',
  'in-sync': 'an Ollama model, in sync',
  changed: 'differs from its Ollama model: create it again',
  missing: 'its Ollama model is gone: create it again',
};

type Draft = { name: string; model: string; systemPrompt: string; params: Record<string, string>; thinkMode: ThinkMode; context: string };
const blank = (model: string): Draft => ({ name: '', model, systemPrompt: '', params: {}, thinkMode: 'off', context: '' });
const toDraft = (a: AliasInput): Draft => ({
  name: a.name,
  model: a.model,
  systemPrompt: a.systemPrompt,
  params: Object.fromEntries(Object.entries(a.parameters).map(([k, v]) => [k, String(v)])),
  thinkMode: a.thinkMode,
  context: a.contextWindow === null ? '' : String(a.contextWindow),
});

/** Aliases: named presets (model, system prompt, parameters, think mode, context) and their Ollama twins. */
export function AliasEditor() {
  const aliases = useModelsStore((s) => s.aliases);
  const models = useModelsStore((s) => s.models);
  // An alias names a connection by id (`connections:list`): the one whose models this screen lists.
  const connectionId = useStore((s) => s.settings?.activeConnectionId ?? 'ollama');
  const [editing, setEditing] = useState<string | null>(null);
  const [draft, setDraft] = useState<Draft>(() => blank(models[0]?.name ?? ''));
  const [problem, setProblem] = useState<string | null>(null);
  const model = draft.model || models[0]?.name || '';

  const save = async () => {
    const parameters: AliasParameters = {};
    for (const p of PARAMS) {
      const raw = draft.params[p.key]?.trim();
      if (!raw) continue;
      const n = Number(raw);
      if (!Number.isFinite(n) || (p.integer && !Number.isInteger(n))) return setProblem(`${p.label} must be a ${p.integer ? 'whole ' : ''}number.`);
      parameters[p.key] = n;
    }
    const context = draft.context.trim() === '' ? null : Number(draft.context);
    if (context !== null && (!Number.isInteger(context) || context < 256)) return setProblem('The context window is a whole number of tokens, at least 256.');
    if (!new RegExp(ALIAS_NAME_PATTERN).test(draft.name)) return setProblem(ALIAS_NAME_RULE);
    setProblem(null);
    const input: AliasInput = { name: draft.name, connectionId, model, systemPrompt: draft.systemPrompt, parameters, thinkMode: draft.thinkMode, contextWindow: context };
    if (await saveAlias(editing, input)) {
      setEditing(null);
      setDraft(blank(model));
    }
  };
  const startFromModel = async () => {
    const from = await aliasDraftFrom(model, draft.name || `${model.split(':')[0] ?? 'model'}-custom`);
    if (from) setDraft(toDraft(from));
  };

  return (
    <section className="mm-section" aria-label="Aliases" data-testid="alias-editor">
      <h3>Aliases</h3>
      <ul className="mm-list">
        {aliases.map((a) => (
          <li key={a.id} data-testid="alias-item" data-alias={a.name}>
            <strong>{a.name}</strong> <span className="mm-muted">→ {a.model} · think {a.thinkMode}{a.contextWindow ? ` · ${a.contextWindow} tokens` : ''}</span>{' '}
            <span data-testid="alias-status" data-status={a.status} className={a.status === 'changed' || a.status === 'missing' ? 'mm-error' : 'mm-muted'}>({STATUS[a.status]})</span>{' '}
            <button type="button" data-testid="alias-edit" onClick={() => { setEditing(a.id); setDraft(toDraft(a)); }}>Edit</button>
            <button type="button" data-testid="alias-materialize" onClick={() => void materializeAlias(a.id)}>{a.materializedDigest ? 'Create again in Ollama' : 'Create in Ollama'}</button>
            <button type="button" data-testid="alias-delete" onClick={() => void deleteAlias(a.id)}>Delete</button>{' '}
            <AutoCompactSelect kind="alias" id={a.id} />
          </li>
        ))}
      </ul>
      <form className="mm-form" onSubmit={(e) => { e.preventDefault(); void save(); }}>
        <label>Name <input data-testid="alias-name" maxLength={161} value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} /></label>
        <label>Model{' '}
          <select data-testid="alias-model" value={model} onChange={(e) => setDraft({ ...draft, model: e.target.value })}>
            {models.map((m) => <option key={m.name} value={m.name}>{m.name}</option>)}
          </select>
        </label>
        <button type="button" data-testid="alias-from-model" onClick={() => void startFromModel()} disabled={!model}>Start from this model’s settings</button>
        <label>System prompt <textarea data-testid="alias-system" value={draft.systemPrompt} onChange={(e) => setDraft({ ...draft, systemPrompt: e.target.value })} /></label>
        <div className="mm-row">
          {PARAMS.map((p) => (
            <label key={p.key}>{p.label} <input data-testid={`alias-${p.key}`} inputMode="decimal" size={6} value={draft.params[p.key] ?? ''} onChange={(e) => setDraft({ ...draft, params: { ...draft.params, [p.key]: e.target.value } })} /></label>
          ))}
        </div>
        <div className="mm-row">
          <label>Think{' '}
            <select data-testid="alias-think" value={draft.thinkMode} onChange={(e) => setDraft({ ...draft, thinkMode: e.target.value as ThinkMode })}>
              {(['off', 'on', 'low', 'medium', 'high'] as const).map((t) => <option key={t} value={t}>{t}</option>)}
            </select>
          </label>
          <label>Context (tokens) <input data-testid="alias-context" inputMode="numeric" size={8} value={draft.context} onChange={(e) => setDraft({ ...draft, context: e.target.value })} /></label>
        </div>
        {problem && <p role="alert" className="mm-error" data-testid="alias-problem">{problem}</p>}
        <div className="mm-row">
          <button type="submit" data-testid="alias-save">{editing ? 'Save alias' : 'Add alias'}</button>
          {editing && <button type="button" onClick={() => { setEditing(null); setDraft(blank(model)); }}>Cancel</button>}
        </div>
      </form>
    </section>
  );
}
