import './tools.css';
import { useEffect, useState } from 'react';
import { clearImportResult, importMcpServers, loadMcpServers, useMcpStore } from '../../store/mcp-slice';
import { McpServerForm } from './McpServerForm';
import { McpServerItem } from './McpServerItem';

/**
 * Settings → Tools (issue 19): the MCP servers that give the model tools. Add one (a program it starts, or a URL),
 * or import the `mcpServers` JSON other apps use; see each server's state and tools, switch either off. Nothing a
 * server sends is rendered as HTML.
 */
export function ToolsSection() {
  const servers = useMcpStore((s) => s.servers);
  const error = useMcpStore((s) => s.error);
  const imported = useMcpStore((s) => s.imported);
  const [adding, setAdding] = useState(false);
  // The form takes "Add a server"'s place: once it is saved or cancelled, the button is back with the focus, which
  // otherwise fell to the page's body with the form (and the next Tab left Settings).
  const [added, setAdded] = useState(false);
  useEffect(() => void loadMcpServers(), []);
  // Settings closed: the import's line is not shown again the next time it opens, long after.
  useEffect(() => clearImportResult, []);

  const importFile = async (file: File | undefined) => {
    if (!file) return;
    await importMcpServers(await file.text());
  };

  return (
    <fieldset className="tools" data-testid="settings-tools">
      {/* Under the section's "Tools" heading: the group is named by what it lists, not "Tools" again. */}
      <legend>MCP servers</legend>
      <p className="mm-muted">
        Programs and services that give the model tools (files, a browser, your notes). Each runs only as you configure it here, and the model asks before a
        tool runs unless you allow it always. Changes here take effect at once: Save and Cancel below are for the other settings.
      </p>
      {servers.length === 0 && <p className="mm-muted">No tool servers yet.</p>}
      {servers.length > 0 && (
        <ul className="mcp-list">
          {servers.map((s) => (
            <McpServerItem key={s.id} server={s} />
          ))}
        </ul>
      )}
      {adding ? (
        <McpServerForm
          onDone={() => {
            setAdding(false);
            setAdded(true);
          }}
        />
      ) : (
        <div className="mcp-actions mcp-add-row">
          <button type="button" data-testid="mcp-add" autoFocus={added} onClick={() => setAdding(true)}>
            Add a server
          </button>
          <label className="mcp-import">
            Import an mcpServers file (JSON)
            <input type="file" accept=".json,application/json" data-testid="mcp-import-input" onChange={(e) => void importFile(e.target.files?.[0]).then(() => (e.target.value = ''))} />
          </label>
        </div>
      )}
      {imported && (
        <p className="mm-muted" role="status" data-testid="mcp-import-result">
          {imported.added.length > 0 ? `Added ${imported.added.join(', ')}.` : 'Nothing was added.'}
          {imported.skipped.map((s) => ` Skipped ${s.name}: ${s.reason}`).join('')}
        </p>
      )}
      {error && (
        <p role="alert" className="field-error" data-testid="mcp-error">
          {error}
        </p>
      )}
    </fieldset>
  );
}
