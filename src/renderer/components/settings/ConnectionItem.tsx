import { useState, type KeyboardEvent, type ReactNode } from 'react';
import { KIND_NAMES, kindConnectionName, type ConnectionInfo, type ConnectionTestResult } from '../../../shared/connections';
import { saveSettings } from '../../store';
import { removeConnection, testConnection } from '../../store/connections-slice';
import { AutoCompactSelect } from '../context/AutoCompactSelect';
import { isEditable } from './ConnectionEditor';

interface Props {
  connection: ConnectionInfo;
  activeId: string;
  /** The address shown: for the built-in Ollama, what is typed in its field (maybe not saved yet). */
  shownUrl: string;
  /** The field the address is typed in, shown in its place (the built-in Ollama's: its address is a setting). */
  addressField?: ReactNode;
  test: ConnectionTestResult | 'testing' | undefined;
  /** The address `test` asked about: a result is shown only while that address is the one shown. */
  testedUrl: string | undefined;
  onEdit: () => void;
  /** After Remove: the section moves the focus to a neighbouring row (the removed one's buttons are gone). */
  onRemoved: () => void;
  /** This one picked as the one in use (Settings' Cancel puts back the one in use as it opened). */
  onPicked?: ((id: string) => void) | undefined;
}

/**
 * Arrow keys in the active-connection group only move the focus: natively each one checked the next radio, and
 * every check switched the server in use (and the open chat's model), one after another (settings audit #3).
 * Space or a click picks the one focused.
 */
function moveAmongRadios(e: KeyboardEvent<HTMLInputElement>): void {
  const step = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 }[e.key];
  if (step === undefined) return;
  e.preventDefault();
  const radios = [...(e.currentTarget.closest('ul')?.querySelectorAll<HTMLInputElement>('input[name="active-connection"]') ?? [])];
  const at = radios.indexOf(e.currentTarget);
  radios[(at + step + radios.length) % radios.length]?.focus();
}

/**
 * Whether a connection's name says its kind (case and spaces aside), as one added without a name does: "Ollama",
 * "llama.cpp server 2", "OpenAI-compatible".
 */
function namedAsKind(c: ConnectionInfo): boolean {
  const name = c.label.trim().toLowerCase().replace(/ \d+$/, '');
  return name === KIND_NAMES[c.kind].toLowerCase() || (c.kind !== 'builtin' && name === kindConnectionName(c.kind).toLowerCase());
}

/** One saved connection: use it, test it, edit it, remove it (after asking). */
export function ConnectionItem({ connection: c, activeId, shownUrl, addressField, test: anyTest, testedUrl, onEdit, onRemoved, onPicked }: Props) {
  // A result about another address (the Ollama field typed into since, the connection edited) is not this one's.
  const test = testedUrl === undefined || testedUrl === shownUrl ? anyTest : undefined;
  // Remove takes the saved key with it and has no undo: it asks first, as Tools' Remove… does, with the focus on
  // Keep (the safe answer) and back on Remove… after it (settings audit #3).
  const [confirming, setConfirming] = useState(false);
  const [kept, setKept] = useState(false);
  const unsaved = shownUrl !== c.baseUrl;
  const testing = test === 'testing';
  const remove = async () => {
    if (await removeConnection(c.id, activeId)) onRemoved();
    else {
      setConfirming(false);
      setKept(true);
    }
  };
  return (
    <>
      <label className="radio" title="The composer lists this server's models and sends to it">
        <input type="radio" name="active-connection" data-testid="connection-use" checked={activeId === c.id} onKeyDown={moveAmongRadios} onChange={() => {
            onPicked?.(c.id);
            void saveSettings({ activeConnectionId: c.id });
          }}
        />
        <strong>{c.label}</strong>
      </label>{' '}
      {/* A name that is its kind's was said twice ("Ollama Ollama"): the kind is said only where it adds something. */}
      {!namedAsKind(c) && <span className="mm-muted" data-testid="connection-kind">{KIND_NAMES[c.kind]}</span>}{' '}
      {addressField ?? <span data-testid="connection-url" className="connection-url">{shownUrl}</span>}
      {unsaved && <span className="mm-muted"> (not saved yet)</span>}{' '}
      {/* The rows Firebrand provides (Ollama's default, the built-in engine) take no key and have no Edit to give one. */}
      {!c.builtIn && <span className="mm-muted" data-testid="connection-key-status">{c.hasApiKey ? 'key saved' : 'no key'}</span>}{' '}
      {/* aria-disabled, not disabled: a disabled button drops the keyboard focus to the page (settings audit #6). */}
      <button type="button" data-testid="connection-test" aria-label={`Test connection ${c.label}`} aria-disabled={testing} aria-busy={testing} onClick={() => !testing && void testConnection(c.id, unsaved ? shownUrl : undefined)}>
        {testing ? 'Testing…' : 'Test connection'}
      </button>
      {isEditable(c) && (
        <button type="button" data-testid="connection-edit-open" aria-label={`Edit ${c.label}`} onClick={onEdit}>
          Edit
        </button>
      )}{' '}
      {!c.builtIn &&
        (confirming ? (
          <span className="connection-confirm" data-testid="connection-remove-confirming">
            <span>Remove {c.label}?{c.hasApiKey ? ' Its saved API key goes with it.' : ''}</span>{' '}
            <button type="button" data-testid="connection-remove-confirm" aria-label={`Remove ${c.label}`} onClick={() => void remove()}>
              Remove
            </button>{' '}
            <button type="button" data-testid="connection-remove-keep" autoFocus aria-label={`Keep ${c.label}`} onClick={() => { setConfirming(false); setKept(true); }}>
              Keep
            </button>
          </span>
        ) : (
          <button type="button" data-testid="connection-remove" aria-label={`Remove ${c.label}…`} autoFocus={kept} onClick={() => setConfirming(true)}>
            Remove…
          </button>
        ))}
      {/* On a line of its own under the buttons, with its hint under it. */}
      <AutoCompactSelect kind="connection" id={c.id} hint />
      {testing && (
        <p className="mm-muted" data-testid="connection-testing" role="status">
          Testing {shownUrl}… (up to 10 s)
        </p>
      )}
      {test && !testing && (
        <p data-testid="connection-test-result" data-ok={test.ok} className={test.ok ? 'mm-ok' : 'field-error'} role="status">
          {test.ok ? test.detail : test.error}
        </p>
      )}
    </>
  );
}
