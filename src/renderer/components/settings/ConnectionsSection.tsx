import './settings.css';
import { useEffect, useState } from 'react';
import { CONNECTION_KINDS, type KeyStorage, type ServerKind } from '../../../shared/connections';
import { firebrand } from '../../firebrand';
import { saveSettings, useStore } from '../../store';
import { AutoCompactSelect } from '../context/AutoCompactSelect';
import { useConnectionFormTyped } from '../../store/connection-forms';
import { loadConnections, removeConnection, saveConnection, testConnection, useConnectionsStore } from '../../store/connections-slice';
import { ConnectionEditor, isEditable } from './ConnectionEditor';
import { savedNote, typedConnection } from './connection-address';

const DEFAULT_URL: Record<ServerKind, string> = {
  ollama: 'http://127.0.0.1:11434',
  'llama-server': 'http://127.0.0.1:8080',
  'openai-compatible': 'http://127.0.0.1:1234',
  anthropic: 'https://api.anthropic.com',
};

/** Settings → connections: list, add and edit (a key is sent once, never shown back), test, remove, and pick the active one. */
export function ConnectionsSection({ ollamaDraft }: { ollamaDraft?: string }) {
  const connections = useConnectionsStore((s) => s.connections);
  const tests = useConnectionsStore((s) => s.tests);
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
  useEffect(() => void loadConnections(), []);
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
    const typed = typedConnection({ kind, label, defaultLabel: kind, url, key });
    if ('refused' in typed) return setProblem(typed.refused);
    setProblem(null);
    setNote(null);
    const saved = await saveConnection(typed.input);
    if (saved) {
      setLabel('');
      setKey('');
      setUrl(DEFAULT_URL[kind]);
      setNote(savedNote(typed.input.baseUrl, saved.baseUrl));
    }
  };

  return (
    <fieldset className="connections" data-testid="connections">
      <legend>Connections</legend>
      <ul className="connection-list" data-testid="connection-list">
        {connections.map((c) => {
          const test = tests[c.id];
          // The built-in Ollama's address is the field above: the row shows (and tests) what is typed there.
          const shownUrl = c.id === 'ollama' && ollamaDraft ? ollamaDraft : c.baseUrl;
          const unsaved = shownUrl !== c.baseUrl;
          if (editing === c.id && isEditable(c)) {
            return (
              <li key={c.id} data-testid="connection-item" data-connection-id={c.id} data-kind={c.kind}>
                <ConnectionEditor
                  connection={c}
                  onDone={(said) => {
                    setEditing(null);
                    setNote(said ?? null);
                  }}
                />
              </li>
            );
          }
          return (
            <li key={c.id} data-testid="connection-item" data-connection-id={c.id} data-kind={c.kind}>
              <label className="radio" title="The composer lists this server's models and sends to it">
                <input type="radio" name="active-connection" data-testid="connection-use" checked={activeId === c.id} onChange={() => void saveSettings({ activeConnectionId: c.id })} />
                <strong>{c.label}</strong>
              </label>{' '}
              <span className="mm-muted" data-testid="connection-kind">{c.kind}</span>{' '}
              <span data-testid="connection-url" className="connection-url">{shownUrl}</span>
              {unsaved && <span className="mm-muted"> (not saved yet)</span>}{' '}
              <span className="mm-muted" data-testid="connection-key-status">{c.hasApiKey ? 'key saved' : 'no key'}</span>{' '}
              <button type="button" data-testid="connection-test" aria-label={`Test connection ${c.label}`} onClick={() => void testConnection(c.id, unsaved ? shownUrl : undefined)} disabled={test === 'testing'}>
                Test connection
              </button>
              <AutoCompactSelect kind="connection" id={c.id} />{' '}
              {isEditable(c) && (
                <button type="button" data-testid="connection-edit-open" aria-label={`Edit ${c.label}`} onClick={() => { setNote(null); setEditing(c.id); }}>
                  Edit
                </button>
              )}{' '}
              {!c.builtIn && (
                <button type="button" data-testid="connection-remove" aria-label={`Remove ${c.label}`} onClick={() => void removeConnection(c.id, activeId)}>
                  Remove
                </button>
              )}
              {test && test !== 'testing' && (
                <p data-testid="connection-test-result" data-ok={test.ok} className={test.ok ? 'mm-ok' : 'field-error'} role="status">
                  {test.ok ? test.detail : test.error}
                </p>
              )}
            </li>
          );
        })}
      </ul>
      <div className="connection-add">
        <select aria-label="Server kind" data-testid="connection-add-kind" value={kind} onChange={(e) => { const k = e.target.value as ServerKind; setKind(k); setUrl(DEFAULT_URL[k]); }}>
          {CONNECTION_KINDS.map((k) => (
            <option key={k} value={k}>{k}</option>
          ))}
        </select>
        <input aria-label="Name" placeholder="Name" data-testid="connection-add-label" value={label} onChange={(e) => setLabel(e.target.value)} />
        <input aria-label="Server address" data-testid="connection-add-url" value={url} onChange={(e) => setUrl(e.target.value)} />
        <input aria-label="API key (optional)" placeholder="API key (optional)" type="password" autoComplete="off" data-testid="connection-add-key" value={key} onChange={(e) => setKey(e.target.value)} />
        <button type="button" className="primary" data-testid="connection-add" onClick={() => void add()}>Add connection</button>
      </div>
      {keyStorage && (
        <p className="key-storage" data-testid="connection-key-storage" data-encrypted={keyStorage.encrypted}>
          {keyStorage.summary} A key is sent only to the address it was saved for; changing the address removes it.
        </p>
      )}
      {note && <p className="key-storage" data-testid="connection-note">{note}</p>}
      {(problem ?? error) && <p role="alert" className="field-error" data-testid="connection-error">{problem ?? error}</p>}
    </fieldset>
  );
}
