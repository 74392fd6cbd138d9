import { useState } from 'react';
import type { ConnectionInfo, ServerKind } from '../../../shared/connections';
import { useConnectionFormTyped } from '../../store/connection-forms';
import { useEscapeAsks } from '../use-escape-asks';
import { saveConnection } from '../../store/connections-slice';
import { savedNote, typedConnection } from './connection-address';

/** A connection the user added (not the built-in Ollama, whose address is its own field, nor the built-in engine). */
export type EditableConnection = ConnectionInfo & { kind: ServerKind };

export function isEditable(c: ConnectionInfo): c is EditableConnection {
  return !c.builtIn && c.kind !== 'builtin';
}

interface Props {
  connection: EditableConnection;
  /** Closes the editor; `note` says what the user should know about what was saved (e.g. a key removed). */
  onDone: (note?: string) => void;
}

/**
 * A saved connection's name, address and key, changed in place. The messages for a server that cannot be reached
 * say to change its address in Settings: before, only the built-in Ollama's address could be changed, and a wrong
 * llama-server address meant removing the connection and adding it again (real-engines audit D1).
 */
export function ConnectionEditor({ connection, onDone }: Props) {
  const [label, setLabel] = useState(connection.label);
  const [url, setUrl] = useState(connection.baseUrl);
  const [key, setKey] = useState('');
  const [removeKey, setRemoveKey] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const changed = label !== connection.label || url !== connection.baseUrl || key !== '' || removeKey;
  useConnectionFormTyped(changed);
  // Escape on a changed editor asks before it throws the typing away: it closed the editor at once, and a stray
  // Escape lost a new address or key.
  const { asking, keepButton, keepEditing, onKeyDown } = useEscapeAsks(changed, onDone);

  const save = async () => {
    const typed = typedConnection({ id: connection.id, kind: connection.kind, label, defaultLabel: connection.label, url, key, removeKey });
    if ('refused' in typed) return setProblem(typed.refused);
    if (saving) return;
    setProblem(null);
    setSaving(true);
    const saved = await saveConnection(typed.input, setProblem);
    setSaving(false);
    if (!saved) return;
    // Main keeps a key only for the address it was saved for: one that went with the old address is said to be gone.
    const keyDropped = connection.hasApiKey && !saved.hasApiKey;
    const keyNote = !keyDropped
      ? null
      : typed.input.apiKey === ''
        ? 'The saved API key was removed.'
        : `The saved API key was removed: a key is sent only to the address it was saved for. Enter it again for ${saved.baseUrl} if the server needs one.`;
    const notes = [savedNote(url, saved.baseUrl, connection.kind), keyNote].filter((n): n is string => n !== null);
    onDone(notes.length > 0 ? notes.join(' ') : undefined);
  };

  return (
    <form
      className="connection-edit"
      data-testid="connection-edit"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
      onKeyDown={onKeyDown}
    >
      <label>
        Name
        <input data-testid="connection-edit-label" value={label} onChange={(e) => setLabel(e.target.value)} />
      </label>
      <label>
        Server address
        <input data-testid="connection-edit-url" value={url} onChange={(e) => setUrl(e.target.value)} autoFocus />
      </label>
      <label>
        API key
        <input type="password" autoComplete="off" data-testid="connection-edit-key" placeholder={connection.hasApiKey ? 'saved: leave empty to keep it' : 'none (optional)'} value={key} onChange={(e) => setKey(e.target.value)} />
      </label>
      {connection.hasApiKey && (
        // An empty field keeps the saved key, so removing it needs its own control (settings audit #8); a key typed above replaces it anyway.
        <label className="radio connection-edit-remove-key">
          <input type="checkbox" data-testid="connection-edit-remove-key" checked={removeKey} onChange={(e) => setRemoveKey(e.target.checked)} />
          Remove saved key
        </label>
      )}
      {asking ? (
        <span className="connection-edit-actions connection-edit-unsaved" role="alertdialog" aria-label="Discard changes" data-testid="connection-edit-unsaved">
          <span>Discard your changes to {connection.label}?</span>
          <button type="button" ref={keepButton} data-testid="connection-edit-keep" onClick={keepEditing}>
            Keep editing
          </button>
          <button type="button" className="danger" data-testid="connection-edit-discard" onClick={() => onDone()}>
            Discard
          </button>
        </span>
      ) : (
        <span className="connection-edit-actions">
          <button type="button" data-testid="connection-edit-cancel" onClick={() => onDone()}>
            Cancel
          </button>
          <button type="submit" className="primary" data-testid="connection-edit-save" aria-disabled={saving}>
            Save connection
          </button>
        </span>
      )}
      {problem && (
        <p role="alert" className="field-error" data-testid="connection-edit-error">
          {problem}
        </p>
      )}
    </form>
  );
}
