import { useRef, useState } from 'react';
import type { McpServerInfo } from '../../../shared/mcp';
import { removeMcpServer, restartMcpServer, setMcpServerEnabled, setMcpTool, useMcpStore } from '../../store/mcp-slice';
import { McpServerForm } from './McpServerForm';

const STATE_WORDS: Record<McpServerInfo['state'], string> = {
  starting: 'Starting…',
  ready: 'Ready',
  failed: 'Failed',
  stopped: 'Stopped',
};

function stateLine(s: McpServerInfo): string {
  const tools = s.toolsKnown ? `${s.tools.length} tool${s.tools.length === 1 ? '' : 's'}` : 'tools not listed yet';
  if (s.state === 'ready') return `Ready: ${tools}`;
  if (s.state === 'stopped') return s.enabled ? `Stopped (starts when needed): ${tools}` : 'Off';
  return STATE_WORDS[s.state];
}

/**
 * The tools' line: how many are on, or, with the server switched off, that none of them is offered (it read
 * "Tools (13 of 13 on)" for a server that was off; tools audit, mcp2 #2). The tool switches keep their places.
 */
function toolsSummary(s: McpServerInfo): string {
  const n = s.tools.length;
  if (!s.enabled) return `Tools (${n}, none offered: the server is off)`;
  return `Tools (${s.tools.filter((t) => t.enabled).length} of ${n} on)`;
}

/** One server: switch, state, what it runs, its error and log, and its tools with their switches. */
export function McpServerItem({ server: s }: { server: McpServerInfo }) {
  const [editing, setEditing] = useState(false);
  const note = useMcpStore((state) => (state.savedNote?.id === s.id ? state.savedNote.text : null));
  // The edit form, saved or cancelled, goes with the focus in it: Edit takes it back (it fell to the page's body).
  const editButton = useRef<HTMLButtonElement>(null);
  // Remove takes the saved secrets with it and has no undo: it asks first, as deleting a model does, with the focus
  // on Keep (the safe answer) and back on Remove… after it (tools audit #5).
  const [confirming, setConfirming] = useState(false);
  const [kept, setKept] = useState(false);
  const secrets = s.envNames.length + s.headerNames.length;
  return (
    <li className="mcp-server" data-testid="mcp-server" data-name={s.name} data-state={s.state} data-tools={s.toolsKnown ? s.tools.length : 0}>
      <div className="mcp-head">
        <label className="radio">
          <input type="checkbox" data-testid="mcp-server-toggle" checked={s.enabled} onChange={(e) => void setMcpServerEnabled(s.id, e.target.checked)} />
          <strong>{s.name}</strong>
        </label>
        <span className={`mcp-state mcp-${s.state}`} data-testid="mcp-server-state">
          {stateLine(s)}
        </span>
      </div>
      {s.startingLine !== null && (
        // Not a live region: a loader's progress would be read out line by line. The failure, if it comes, quotes it.
        <p className="mm-muted mcp-starting-line" data-testid="mcp-server-starting-line">
          It says: “{s.startingLine}”
        </p>
      )}
      <code className="mcp-target">{s.transport === 'stdio' ? [s.command, ...s.args].join(' ') : `${s.url}${s.protocol === 'sse' ? ' (SSE)' : ''}`}</code>
      {note && (
        <p className="mcp-note" role="status" data-testid="mcp-server-note">
          {note}
        </p>
      )}
      {(s.envNames.length > 0 || s.headerNames.length > 0) && (
        <p className="mm-muted">Saved, never shown: {[...s.envNames, ...s.headerNames].join(', ')}</p>
      )}
      {s.error && (
        <p className="field-error" data-testid="mcp-server-error">
          {s.error}
        </p>
      )}
      {s.stderrTail !== '' && (
        <details className="mcp-log">
          <summary>Server log</summary>
          <pre data-testid="mcp-server-log">{s.stderrTail}</pre>
        </details>
      )}
      {s.tools.length > 0 && (
        <details className="mcp-tools">
          <summary data-testid="mcp-tools-summary">{toolsSummary(s)}</summary>
          <ul>
            {s.tools.map((t) => (
              <li key={t.name} data-testid="mcp-tool" data-name={t.name}>
                <label className="radio">
                  <input type="checkbox" data-testid="mcp-tool-toggle" checked={t.enabled} onChange={(e) => void setMcpTool(s.id, t.name, { enabled: e.target.checked })} />
                  <code>{t.name}</code>
                  {t.offeredAs !== null && t.offeredAs !== t.name && <span className="mm-muted"> (offered as {t.offeredAs})</span>}
                </label>
                {t.description !== '' && <p className="mm-muted mcp-description">{t.description}</p>}
                <label className="radio mcp-always">
                  <input type="checkbox" data-testid="mcp-tool-always-allow" checked={t.alwaysAllow} onChange={(e) => void setMcpTool(s.id, t.name, { alwaysAllow: e.target.checked })} />
                  Run without asking
                </label>
              </li>
            ))}
          </ul>
        </details>
      )}
      <div className="mcp-actions">
        <button type="button" data-testid="mcp-server-restart" disabled={!s.enabled} onClick={() => void restartMcpServer(s.id)}>
          {s.state === 'failed' ? 'Try again' : 'Restart'}
        </button>
        <button type="button" ref={editButton} data-testid="mcp-server-edit" onClick={() => setEditing((e) => !e)}>
          Edit
        </button>
        {confirming ? (
          <>
            <span>
              Remove {s.name}?{secrets > 0 ? ` Its saved ${secrets === 1 ? 'value goes' : 'values go'} with it.` : ''}
            </span>
            <button type="button" data-testid="mcp-server-remove-confirm" aria-label={`Remove ${s.name}`} onClick={() => void removeMcpServer(s.id)}>
              Remove
            </button>
            <button type="button" autoFocus aria-label={`Keep ${s.name}`} onClick={() => { setConfirming(false); setKept(true); }}>
              Keep
            </button>
          </>
        ) : (
          <button type="button" data-testid="mcp-server-remove" aria-label={`Remove ${s.name}…`} autoFocus={kept} onClick={() => setConfirming(true)}>
            Remove…
          </button>
        )}
      </div>
      {editing && (
        <McpServerForm
          server={s}
          onDone={() => {
            setEditing(false);
            editButton.current?.focus();
          }}
        />
      )}
    </li>
  );
}
