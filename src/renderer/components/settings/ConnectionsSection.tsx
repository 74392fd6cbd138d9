import './settings.css';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { CONNECTION_KINDS, KIND_NAMES, kindConnectionName, unusedName, type KeyStorage, type ServerKind } from '../../../shared/connections';
import { firebrand } from '../../firebrand';
import { useStore } from '../../store';
import { useConnectionFormTyped } from '../../store/connection-forms';
import { loadConnections, retestOnLiveChange, saveConnection, useConnectionsStore } from '../../store/connections-slice';
import { ConnectionEditor, isEditable } from './ConnectionEditor';
import { ConnectionItem } from './ConnectionItem';
import { savedNote, typedConnection } from './connection-address';

const DEFAULT_URL: Record<ServerKind, string> = {
  ollama: 'http://127.0.0.1:11434',
  'llama-server': 'http://127.0.0.1:8080',
  'openai-compatible': 'http://127.0.0.1:1234',
  anthropic: 'https://api.anthropic.com',
};

/**
 * Settings → connections: list, add and edit (a key is sent once, never shown back), test, remove, and pick the active
 * one. `onPicked` hears of a pick: the pick applies at once (the picker lists that server's models), and Settings'
 * Cancel puts back the one in use as it opened.
 */
export function ConnectionsSection({ ollamaDraft, ollamaField, onPicked }: { ollamaDraft?: string; ollamaField?: ReactNode; onPicked?: (id: string) => void }) {
  const connections = useConnectionsStore((s) => s.connections);
  const tests = useConnectionsStore((s) => s.tests);
  const testedUrls = useConnectionsStore((s) => s.testedUrls);
  const error = useConnectionsStore((s) => s.error);
  const activeId = useStore((s) => s.settings?.activeConnectionId ?? 'ollama');
  const [kind, setKind] = useState<ServerKind>('llama-server');
  const [label, setLabel] = useState('');
  const [url, setUrl] = useState(DEFAULT_URL['llama-server']);
  const [key, setKey] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [keyStorage, setKeyStorage] = useState<KeyStorage | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  useConnectionFormTyped(label !== '' || key !== '' || url !== DEFAULT_URL[kind]);
  const [adding, setAdding] = useState(false);
  const addingNow = useRef(false);
  // Where the keyboard focus goes once the list shows the change: the Edit button of a closed editor, a neighbour
  // of a removed row. Without it the focus fell to the page (settings audit #6).
  const [refocus, setRefocus] = useState<string | null>(null);
  const section = useRef<HTMLFieldSetElement>(null);
  const formId = useId();
  useEffect(() => void loadConnections(), []);
  const unreachable = useStore((s) => s.modelsUnreachable);
  const listedOf = useStore((s) => s.modelsConnection);
  useEffect(() => retestOnLiveChange(unreachable, listedOf), [unreachable, listedOf]);
  useEffect(() => {
    if (refocus === null) return;
    const target = section.current?.querySelector<HTMLElement>(refocus);
    if (!target) return;
    target.focus();
    setRefocus(null);
  }, [refocus, connections, editing]);
  useEffect(() => {
    let live = true;
    firebrand()
      .connections.keyStorage({})
      .then((k) => live && setKeyStorage(k))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);

  const add = async () => {
    // A double-click added the connection twice (settings audit #5). A ref, not the state: the second click can come
    // before the render that the first one's state change asks for.
    if (addingNow.current) return;
    addingNow.current = true;
    try {
      await addTyped();
    } finally {
      addingNow.current = false;
    }
  };
  const addTyped = async () => {
    // An empty name is left to main, which names the connection by its kind ("llama.cpp server 2"), once for every
    // window: the page named it by the kind's id ("llama-server").
    const typed = typedConnection({ kind, label, defaultLabel: '', url, key });
    if ('refused' in typed) return setProblem(typed.refused);
    setProblem(null);
    setNote(null);
    setAdding(true);
    const saved = await saveConnection(typed.input, setProblem);
    setAdding(false);
    if (saved) {
      setLabel('');
      setKey('');
      setUrl(DEFAULT_URL[kind]);
      setNote(savedNote(url, saved.baseUrl, kind));
    }
  };

  return (
    <fieldset className="connections" data-testid="connections" ref={section}>
      <legend>Connections</legend>
      <p className="mm-muted" data-testid="connections-at-once">
        The servers you chat with. The one you pick is used at once; Cancel below goes back to the one in use before. Connections you add, edit or remove are saved at once.
      </p>
      <ul className="connection-list" data-testid="connection-list">
        {connections.map((c, i) => {
          // The built-in Ollama's address is a setting, typed in its field, which its row shows in place of the address
          // (it showed both, the field above the list and the address in the row); the row tests what is typed there.
          const shownUrl = c.id === 'ollama' && ollamaDraft ? ollamaDraft : c.baseUrl;
          const row = `[data-connection-id="${CSS.escape(c.id)}"]`;
          if (editing === c.id && isEditable(c)) {
            return (
              <li key={c.id} data-testid="connection-item" data-connection-id={c.id} data-kind={c.kind}>
                <ConnectionEditor
                  connection={c}
                  onDone={(said) => {
                    setEditing(null);
                    setNote(said ?? null);
                    setRefocus(`${row} [data-testid="connection-edit-open"]`);
                  }}
                />
              </li>
            );
          }
          const neighbour = connections[i + 1] ?? connections[i - 1];
          return (
            <li key={c.id} data-testid="connection-item" data-connection-id={c.id} data-kind={c.kind}>
              <ConnectionItem
                connection={c}
                activeId={activeId}
                shownUrl={shownUrl}
                addressField={c.id === 'ollama' ? ollamaField : undefined}
                test={tests[c.id]}
                testedUrl={testedUrls[c.id]}
                onEdit={() => {
                  setNote(null);
                  setEditing(c.id);
                }}
                onPicked={onPicked}
                onRemoved={() => setRefocus(neighbour ? `[data-connection-id="${CSS.escape(neighbour.id)}"] [data-testid="connection-test"]` : '[data-testid="connection-add-kind"]')}
              />
            </li>
          );
        })}
      </ul>
      {/* A form, so that Enter in any of its fields adds the connection, as Enter saves the editor: it did nothing. */}
      <form
        className="connection-add"
        data-testid="connection-add-form"
        aria-labelledby={`${formId}-title`}
        onSubmit={(e) => {
          e.preventDefault();
          void add();
        }}
      >
        {/* Each field has its name over it, as the editor's do: they were named by placeholders, which go as the user
            types, and the address (filled with the kind's usual one) by nothing at all. */}
        <span className="connection-add-title" id={`${formId}-title`}>Add a connection</span>
        <label>
          Server kind
          <select data-testid="connection-add-kind" value={kind} onChange={(e) => { const k = e.target.value as ServerKind; setKind(k); setUrl(DEFAULT_URL[k]); }}>
            {CONNECTION_KINDS.map((k) => (
              <option key={k} value={k}>{KIND_NAMES[k]}</option>
            ))}
          </select>
        </label>
        <label className="connection-add-name">
          {/* Optional, as the key is: an empty name is the kind's, which the placeholder shows (as main will name it). "optional:
              llama-server if empty" was cut at 390 px once the box had its name over it (placeholders-390). */}
          Name (optional)
          <input placeholder={unusedName(kindConnectionName(kind), connections.map((c) => c.label))} data-testid="connection-add-label" value={label} onChange={(e) => setLabel(e.target.value)} />
        </label>
        <label>
          Server address
          <input data-testid="connection-add-url" value={url} onChange={(e) => setUrl(e.target.value)} />
        </label>
        <label>
          API key (optional)
          <input type="password" autoComplete="off" data-testid="connection-add-key" value={key} onChange={(e) => setKey(e.target.value)} />
        </label>
        <button type="submit" className="primary" data-testid="connection-add" aria-disabled={adding}
          // The second click of a double-click (detail 2) is not a second Add: where the first one's save was quick, the
          // form was already emptied (the kind's default address back), and the second added that.
          onClick={(e) => {
            if (e.detail > 1) e.preventDefault();
          }}
        >
          {adding ? 'Adding…' : 'Add connection'}
        </button>
      </form>
      {keyStorage && (
        <p className="key-storage" data-testid="connection-key-storage" data-encrypted={keyStorage.encrypted}>
          {keyStorage.summary} A key goes only to the address it was saved for; a new address removes it.
        </p>
      )}
      {note && <p className="key-storage" data-testid="connection-note">{note}</p>}
      {(problem ?? error) && <p role="alert" className="field-error" data-testid="connection-error">{problem ?? error}</p>}
    </fieldset>
  );
}
