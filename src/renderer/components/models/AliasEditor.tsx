import { useEffect, useId, useRef, useState } from 'react';
import type { ModelSummary } from '../../../shared/ipc';
import { ALIAS_NAME_PATTERN, ALIAS_NAME_RULE, type Alias, type AliasInput, type AliasParameters, type ThinkMode } from '../../../shared/models';
import { aliasDraftFrom, deleteAlias, listModelsOf, materializeAlias, saveAlias, useModelsStore } from '../../store/models-slice';
import { errorMessage } from '../../store/errors';
import { missingModel } from '../composer/picker-groups';
import { useStore } from '../../store';
import { AutoCompactSelect } from '../context/AutoCompactSelect';
import { AliasConflict } from './AliasConflict';
import { aliasWindowBelowChat } from '../../store/open-chat-size';
import { useLibraryStore } from '../../store/library-slice';
import { aliasWindowAboveTrained } from './alias-window-notes';
import { aliasNameProblem } from './alias-name-problem';
import { typedWindow } from './typed-window';
import { useFocusAfterRemoval } from '../../hooks/use-focus-after-removal';
import { useFocusWhenShown } from '../../hooks/use-focus-when-shown';

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

/** The Ollama connection the model manager works on: only its aliases are read from or created in Ollama. */
const OLLAMA = 'ollama';

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

/** The models of a connection that is not the active one (null: none asked), or why they could not be listed. */
function useOtherModels(connectionId: string | null): { models: ModelSummary[]; error: string | null } {
  const [state, setState] = useState<{ id: string | null; models: ModelSummary[]; error: string | null }>({ id: null, models: [], error: null });
  useEffect(() => {
    if (connectionId === null) return;
    let live = true;
    listModelsOf(connectionId).then(
      (models) => live && setState({ id: connectionId, models, error: null }),
      (err: unknown) => live && setState({ id: connectionId, models: [], error: errorMessage(err) }),
    );
    return () => {
      live = false;
    };
  }, [connectionId]);
  return state.id === connectionId ? state : { models: [], error: null };
}

/** Aliases: named presets (model, system prompt, parameters, think mode, context) and their Ollama twins. */
/** `serverName`: the active connection's name (shared connectionName), which says why its model list is empty. */
export function AliasEditor({ serverName }: { serverName: string }) {
  const aliases = useModelsStore((s) => s.aliases);
  const activeModels = useModelsStore((s) => s.models);
  const listError = useModelsStore((s) => s.listError);
  const modelsRead = useModelsStore((s) => s.modelsRead);
  // A built-in model's trained context, from its GGUF (the library lists it on this screen).
  const libraryEntries = useLibraryStore((s) => s.entries);
  // A new alias names the active connection (`connections:list`), whose models this screen lists.
  const activeConnectionId = useStore((s) => s.settings?.activeConnectionId ?? 'ollama');
  const [editing, setEditing] = useState<Alias | null>(null);
  // The alias being edited as saved now: another window or tab may have changed or deleted it meanwhile.
  const saved = editing ? aliases.find((a) => a.id === editing.id) : undefined;
  // While this form saves, the change main announces is its own.
  const [saving, setSaving] = useState(false);
  const elsewhere = editing === null || saving ? null : saved === undefined ? 'deleted' : saved.updatedAt !== editing.updatedAt ? 'changed' : null;
  // An edited alias keeps its own connection and chooses among that connection's models (models audit #2).
  const connectionId = editing?.connectionId ?? activeConnectionId;
  const other = useOtherModels(connectionId === activeConnectionId ? null : connectionId);
  const models = connectionId === activeConnectionId ? activeModels : other.models;
  const [draft, setDraft] = useState<Draft>(() => blank(activeModels[0]?.name ?? ''));
  const [problem, setProblem] = useState<string | null>(null);
  // Delete asks first, as a model's Delete… does (models audit #6: one click lost the alias for good). The question
  // takes the place of Delete…: the focus goes to Keep (the safe answer), and back to Delete… on Keep.
  const [deleting, setDeleting] = useState<string | null>(null);
  const [keptAlias, setKeptAlias] = useState<string | null>(null);
  const keepAlias = (id: string) => {
    setDeleting(null);
    setKeptAlias(id);
  };
  const section = useRef<HTMLElement>(null);
  const nameField = useRef<HTMLInputElement>(null);
  const formTitle = useRef<HTMLHeadingElement>(null);
  const titleId = useId();
  /** An alias deleted from its row: the focus goes to the alias that takes its place (else the one before), else to Name, to add one. */
  const row = (id: string) => section.current?.querySelector<HTMLElement>(`[data-testid="alias-item"][data-alias-id="${CSS.escape(id)}"]`);
  const removal = useFocusAfterRemoval(
    aliases.map((a) => a.id),
    (id) => row(id)?.querySelector<HTMLElement>('[data-testid="alias-edit"]'),
    () => nameField.current,
  );
  /** After a save: the window is below what the open chat through this alias holds already (open-chat-size.ts). */
  const [windowNote, setWindowNote] = useState<string | null>(null);
  // The edit main refused because another window or tab saved the alias first: kept until the user chooses.
  const [conflict, setConflict] = useState<AliasInput | null>(null);
  const model = draft.model || models[0]?.name || '';
  // The model an edited alias names stays offered, even where its server does not list it now.
  const options = model !== '' && !models.some((m) => m.name === model) ? [model, ...models.map((m) => m.name)] : models.map((m) => m.name);
  const stop = () => {
    setEditing(null);
    setProblem(null);
    setWindowNote(null);
    setConflict(null);
    setDraft(blank(activeModels[0]?.name ?? ''));
  };
  /**
   * Edit fills the form below the list: the focus goes to its Name, and the form's top is scrolled into view. The
   * focus stayed on Edit, and with a long list the form was off the screen: nothing seemed to happen.
   */
  const edit = (a: Alias) => {
    setEditing(a);
    setProblem(null);
    setDraft(toDraft(a));
    nameField.current?.focus({ preventScroll: true });
    // Nearest, title then Name: both in view, and nothing moves where the form was on screen already.
    formTitle.current?.scrollIntoView({ block: 'nearest' });
    nameField.current?.scrollIntoView({ block: 'nearest' });
  };
  /** The Edit of the alias named `name`, where the focus goes back once its edit ends. */
  const editButton = (name: string) => section.current?.querySelector<HTMLElement>(`[data-testid="alias-item"][data-alias="${CSS.escape(name)}"] [data-testid="alias-edit"]`);
  const focusWhenShown = useFocusWhenShown();
  /** Cancel: the focus goes back to the alias's Edit (it fell to <body> with Cancel), else (deleted meanwhile) to Name. */
  const cancel = () => {
    const name = editing?.name;
    stop();
    ((name === undefined ? null : editButton(name)) ?? nameField.current)?.focus();
  };

  const save = async () => {
    const parameters: AliasParameters = {};
    for (const p of PARAMS) {
      const raw = draft.params[p.key]?.trim();
      if (!raw) continue;
      const n = Number(raw);
      if (!Number.isFinite(n) || (p.integer && !Number.isInteger(n))) return setProblem(`${p.label} must be a ${p.integer ? 'whole ' : ''}number.`);
      parameters[p.key] = n;
    }
    // Read as the Context window panel reads a window: "8,192", as the list writes it, is 8192 (it was refused).
    const typed = draft.context.trim() === '' ? null : typedWindow(draft.context);
    if (typed?.problem !== undefined) return setProblem(typed.problem);
    const context = typed?.tokens ?? null;
    if (!new RegExp(ALIAS_NAME_PATTERN).test(draft.name)) return setProblem(ALIAS_NAME_RULE);
    // Main refuses it too (the source of truth); said here at once, before a round trip.
    const clash = aliasNameProblem(draft.name, models, aliases, elsewhere === 'deleted' ? null : editing);
    if (clash) return setProblem(clash);
    setProblem(null);
    const input: AliasInput = { name: draft.name, connectionId, model, systemPrompt: draft.systemPrompt, parameters, thinkMode: draft.thinkMode, contextWindow: context };
    // Deleted in another tab meanwhile: what the user typed is saved as a new alias rather than refused as gone.
    await submit(input, elsewhere === 'deleted' ? null : editing, editing?.updatedAt);
  };
  /** Saves `input` over `target` as of version `basedOn` (main refuses it where another tab saved since). */
  const submit = async (input: AliasInput, target: Alias | null, basedOn: number | undefined) => {
    setSaving(true);
    const refused = await saveAlias(target?.id ?? null, input, target ? basedOn : undefined);
    setSaving(false);
    if (refused?.conflict) return setConflict(input);
    setConflict(null);
    if (refused !== null) return setProblem(refused.message);
    stop();
    // Saved from an edit: the focus goes back to the alias's Edit, under its name as saved (a renamed row shows it
    // once the list is read again). A new alias keeps it on Add alias, to add another.
    if (editing) focusWhenShown(() => editButton(input.name));
    // A new alias is no chat's model yet; an edited one may be the open chat's.
    const trained = input.connectionId === 'builtin' ? libraryEntries.find((e) => e.file === input.model)?.trainedContext : undefined;
    setWindowNote((target ? aliasWindowBelowChat(target.id, input.name, input.contextWindow) : null) ?? aliasWindowAboveTrained(input.model, input.contextWindow, trained));
  };
  const keepMine = () => {
    if (!conflict) return;
    // Over what they saved, knowingly; deleted meanwhile, it is added again.
    void submit(conflict, saved ?? null, saved?.updatedAt);
  };
  const takeTheirs = () => {
    if (!saved) return stop();
    setEditing(saved);
    setDraft(toDraft(saved));
    setConflict(null);
    setProblem(null);
  };
  /**
   * Deletes an alias, asked from its row. The one being edited ends its edit: its form held what was just deleted,
   * and said it had been "deleted in another window or tab" (found in the hunt round). Refused, it is edited again.
   */
  const remove = async (a: Alias) => {
    setDeleting(null);
    removal.arm(a.id);
    const edit = editing?.id === a.id ? { editing, draft } : null;
    if (edit) stop();
    if (await deleteAlias(a.id)) return;
    removal.disarm();
    if (edit) {
      setEditing(edit.editing);
      setDraft(edit.draft);
    }
    row(a.id)?.querySelector<HTMLElement>('[data-testid="alias-delete"]')?.focus();
  };
  const startFromModel = async () => {
    const from = await aliasDraftFrom(model, draft.name || `${model.split(':')[0] ?? 'model'}-custom`);
    if (from) setDraft(toDraft(from));
  };

  return (
    <section className="mm-section" aria-label="Aliases" data-testid="alias-editor" ref={section}>
      <h3>Aliases</h3>
      <ul className="mm-list">
        {aliases.map((a) => (
          <li key={a.id} className="mm-alias" data-testid="alias-item" data-alias={a.name} data-alias-id={a.id}>
            {/* What it is on one line, its buttons (spaced, kept together) on the next, the auto-compact choice under
                them: the buttons ran into one another and "Summarize older turns on its own" broke over two lines
                around them (models eyes pass). */}
            <div>
              <strong>{a.name}</strong> <span className="mm-muted">→ {a.model} · think {a.thinkMode}{a.contextWindow ? ` · ${a.contextWindow.toLocaleString('en-US')} tokens` : ''}</span>{' '}
              <span data-testid="alias-status" data-status={a.status} className={a.status === 'changed' || a.status === 'missing' ? 'mm-error' : 'mm-muted'}>({STATUS[a.status]})</span>{' '}
              {/* Its model deleted or renamed away: said here as the picker says it (round 10: only the picker did). */}
              {a.connectionId === activeConnectionId && missingModel(a, activeModels) && <span className="mm-error" data-testid="alias-model-gone">{missingModel(a, activeModels)}</span>}
            </div>
            <div className="mm-row">
              <button type="button" data-testid="alias-edit" aria-label={`Edit ${a.name}`} onClick={() => edit(a)}>Edit</button>
              {a.connectionId === OLLAMA && <button type="button" data-testid="alias-materialize" onClick={() => void materializeAlias(a.id)}>{a.materializedDigest ? 'Create again in Ollama' : 'Create in Ollama'}</button>}
              {deleting === a.id ? (
                <span role="alertdialog" className="mm-row" aria-label={`Delete ${a.name}`}>
                  <span data-testid="alias-delete-question">Delete the alias {a.name}? Its system prompt, parameters and window go with it.{a.materializedDigest ? ` Its Ollama model ${a.name} stays.` : ''}</span>{' '}
                  <button type="button" data-testid="alias-delete-confirm" aria-label={`Delete ${a.name}`} onClick={() => void remove(a)}>Delete</button>
                  <button type="button" data-testid="alias-delete-keep" autoFocus aria-label={`Keep ${a.name}`} onClick={() => keepAlias(a.id)}>Keep</button>
                </span>
              ) : (
                <button type="button" data-testid="alias-delete" aria-label={`Delete ${a.name}…`} autoFocus={keptAlias === a.id} onClick={() => setDeleting(a.id)}>Delete…</button>
              )}
            </div>
            <AutoCompactSelect kind="alias" id={a.id} />
          </li>
        ))}
      </ul>
      {windowNote && <p role="status" className="mm-error" data-testid="alias-window-note">{windowNote}</p>}
      <form className="mm-form" aria-labelledby={titleId} onSubmit={(e) => { e.preventDefault(); void save(); }}>
        <h4 id={titleId} ref={formTitle} data-testid="alias-form-title">{editing ? `Edit ${editing.name}` : 'New alias'}</h4>
        <label>Name <input data-testid="alias-name" ref={nameField} maxLength={161} value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} /></label>
        <label>Model{' '}
          <select data-testid="alias-model" value={model} onChange={(e) => setDraft({ ...draft, model: e.target.value })}>
            {options.map((name) => <option key={name} value={name}>{name}</option>)}
          </select>
        </label>
        {/* An empty Model list said nothing of why (Ollama down, or nothing pulled yet; models eyes pass). */}
        {options.length === 0 && connectionId === activeConnectionId && (listError !== null || modelsRead) && (
          <p className="mm-muted" data-testid="alias-no-models">
            {listError !== null
              ? `No model to choose: ${serverName}’s models could not be listed (see above).`
              : `No model to choose: ${serverName} has none yet.`}
          </p>
        )}
        {editing && connectionId !== activeConnectionId && (
          <p className="mm-muted" data-testid="alias-connection">
            {other.error ? `Its connection's models could not be listed (${other.error}); its model is kept.` : `This alias belongs to another connection than the active one; it stays there, with that connection's models.`}
          </p>
        )}
        {connectionId === OLLAMA && <button type="button" data-testid="alias-from-model" onClick={() => void startFromModel()} disabled={!model}>Start from this model’s settings</button>}
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
        {conflict && saved && <AliasConflict theirs={saved} mine={conflict} onKeepMine={keepMine} onTakeTheirs={takeTheirs} />}
        {elsewhere && !(conflict && saved) && (
          <p className="mm-muted" data-testid="alias-elsewhere" data-elsewhere={elsewhere}>
            {elsewhere === 'deleted'
              ? 'This alias was deleted in another window or tab; saving adds it again as a new alias.'
              : 'This alias was changed in another window or tab since you began editing it; Save shows what they saved, to keep yours or take theirs.'}
          </p>
        )}
        {problem && <p role="alert" className="mm-error" data-testid="alias-problem">{problem}</p>}
        <div className="mm-row">
          <button type="submit" data-testid="alias-save">{editing && elsewhere !== 'deleted' ? 'Save alias' : 'Add alias'}</button>
          {editing && <button type="button" data-testid="alias-cancel" onClick={cancel}>Cancel</button>}
        </div>
      </form>
    </section>
  );
}
