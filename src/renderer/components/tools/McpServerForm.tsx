import { useEffect, useState } from 'react';
import { DEFAULT_MCP_TIMEOUT_SECONDS, type McpSecretEntry, type McpServerInfo, type McpTransport } from '../../../shared/mcp';
import { holdTypedForm, saveMcpServer } from '../../store/mcp-slice';
import { useEscapeAsks } from '../use-escape-asks';
import { SecretRows, type SecretRow } from './SecretRows';

/** Arguments one per line: a path with spaces stays one argument. */
const splitLines = (text: string) => text.split('\n').map((l) => l.trim()).filter((l) => l !== '');

const rowsOf = (names: string[]): SecretRow[] => names.map((name) => ({ name, value: '', saved: true }));
/** A saved row left blank keeps its value; anything typed replaces it. */
const entriesOf = (rows: SecretRow[]): McpSecretEntry[] =>
  rows.filter((r) => r.name.trim() !== '').map((r) => (r.saved && r.value === '' ? { name: r.name.trim() } : { name: r.name.trim(), value: r.value }));

/**
 * Add or edit a server: a program Firebrand starts (stdio) or a URL (Streamable HTTP, or SSE). It opens with the focus
 * in its first field; `onDone` (saved or cancelled) gives the focus back to the button that opened it.
 */
export function McpServerForm({ server, onDone }: { server?: McpServerInfo; onDone: () => void }) {
  const [name, setName] = useState(server?.name ?? '');
  const [transport, setTransport] = useState<McpTransport>(server?.transport ?? 'stdio');
  const [command, setCommand] = useState(server?.command ?? '');
  const [args, setArgs] = useState((server?.args ?? []).join('\n'));
  const [cwd, setCwd] = useState(server?.cwd ?? '');
  const [url, setUrl] = useState(server?.url ?? '');
  const [env, setEnv] = useState<SecretRow[]>(rowsOf(server?.envNames ?? []));
  const [headers, setHeaders] = useState<SecretRow[]>(rowsOf(server?.headerNames ?? []));
  const [timeout, setTimeoutText] = useState(String(server?.timeoutSeconds ?? DEFAULT_MCP_TIMEOUT_SECONDS));
  const [startWithApp, setStartWithApp] = useState(server?.startWithApp ?? false);
  const [problem, setProblem] = useState<string | null>(null);
  // Typed into, the form counts as an unsaved change of Settings: a click beside the dialog asks before it goes
  // (tools audit #6: a half-typed server was thrown away with no word).
  const [first] = useState(() => JSON.stringify([name, transport, command, args, cwd, url, env, headers, timeout, startWithApp]));
  const typed = JSON.stringify([name, transport, command, args, cwd, url, env, headers, timeout, startWithApp]) !== first;
  useEffect(() => (typed ? holdTypedForm() : undefined), [typed]);
  // Escape closes the form, asking first where it was typed into, as a connection's editor does: it went up to the
  // dialog, which asked about the whole of Settings ("A connection or tool server you typed is not added or saved
  // yet.").
  const { asking, keepButton, keepEditing, onKeyDown } = useEscapeAsks(typed, onDone);

  const save = async () => {
    const seconds = Number(timeout);
    if (!Number.isInteger(seconds) || seconds < 1 || seconds > 3600) return setProblem('The call timeout is a whole number of seconds from 1 to 3600.');
    setProblem(null);
    const ok = await saveMcpServer({
      ...(server ? { id: server.id } : {}),
      name: name.trim(),
      transport,
      ...(transport === 'stdio'
        ? { command: command.trim(), args: splitLines(args), cwd: cwd.trim() === '' ? null : cwd.trim(), env: entriesOf(env) }
        : { url: url.trim(), headers: entriesOf(headers) }),
      timeoutSeconds: seconds,
      startWithApp,
    }, setProblem);
    if (ok) onDone();
  };

  return (
    <div
      className="mcp-form"
      data-testid="mcp-form"
      onKeyDown={onKeyDown}
    >
      {/* Each field says what it is above it, as the Settings fields do: the placeholders alone went as the user typed,
          and a filled form no longer said which box was which. The label's text is the field's accessible name. */}
      <div className="mcp-form-row">
        <label className="field">
          Server name
          <input data-testid="mcp-form-name" autoFocus value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        {/* Named as the label says: a label around a <select> or <textarea> named it with its option or text too. */}
        <label className="field">
          How to reach it
          <select aria-label="How to reach it" data-testid="mcp-form-transport" value={transport} onChange={(e) => setTransport(e.target.value as McpTransport)}>
            <option value="stdio">Program (stdio)</option>
            <option value="http">URL (HTTP or SSE)</option>
          </select>
        </label>
      </div>
      {transport === 'stdio' ? (
        <>
          <label className="field">
            Command
            <input placeholder="the program alone, e.g. npx" data-testid="mcp-form-command" value={command} onChange={(e) => setCommand(e.target.value)} />
          </label>
          <label className="field">
            Arguments, one per line
            <textarea aria-label="Arguments, one per line" rows={3} data-testid="mcp-form-args" value={args} onChange={(e) => setArgs(e.target.value)} />
          </label>
          <label className="field">
            Working folder (optional)
            <input placeholder="a full path" value={cwd} onChange={(e) => setCwd(e.target.value)} />
          </label>
          <SecretRows label="Environment variables" addLabel="Add variable" rows={env} onChange={setEnv} />
        </>
      ) : (
        <>
          <label className="field">
            Server URL
            <input placeholder="https://… or localhost:3001/mcp" data-testid="mcp-form-url" value={url} onChange={(e) => setUrl(e.target.value)} />
          </label>
          <SecretRows label="Headers" addLabel="Add header" rows={headers} onChange={setHeaders} />
        </>
      )}
      <label className="field mcp-timeout">
        Call timeout (seconds)
        <input inputMode="numeric" value={timeout} onChange={(e) => setTimeoutText(e.target.value)} />
      </label>
      <label className="radio">
        <input type="checkbox" checked={startWithApp} onChange={(e) => setStartWithApp(e.target.checked)} />
        Start with Firebrand (otherwise when first needed)
      </label>
      {problem && (
        <p role="alert" className="field-error" data-testid="mcp-form-error">
          {problem}
        </p>
      )}
      {asking ? (
        <div className="mcp-actions" role="alertdialog" aria-label="Discard changes" data-testid="mcp-form-unsaved">
          <span>{server ? `Discard your changes to ${server.name}?` : 'Discard this new server?'}</span>
          <button type="button" ref={keepButton} data-testid="mcp-form-keep" onClick={keepEditing}>
            Keep editing
          </button>
          <button type="button" className="danger" data-testid="mcp-form-discard" onClick={onDone}>
            Discard
          </button>
        </div>
      ) : (
        <div className="mcp-actions">
          <button type="button" onClick={onDone}>
            Cancel
          </button>
          <button type="button" data-testid="mcp-form-save" onClick={() => void save()}>
            {server ? 'Save server' : 'Add server'}
          </button>
        </div>
      )}
    </div>
  );
}
