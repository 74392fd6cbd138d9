import { useEffect, useId, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { X } from 'lucide-react';
import type { Settings, Theme } from '../../shared/ipc';
import type { GpuReport } from '../../shared/models';
import { firebrand } from '../firebrand';
import { GIB } from '../format';
import { saveSettings, useStore } from '../store';
import { setGpuOverride } from '../store/models-slice';
import { useConnectionFormsTyped } from '../store/connection-forms';
import { useConnectionsStore } from '../store/connections-slice';
import { useMcpStore } from '../store/mcp-slice';
import { Modal } from './frame/Modal';
import { ConnectionsSection } from './settings/ConnectionsSection';
import { gpuFoundLine, idleMinutesFrom, refusedField, type RefusableField } from './settings/settings-fields';
import { ToolsSection } from './tools/ToolsSection';
import './settings/settings.css';
import { aliasRef, refFor, refLabel } from '../../shared/model-ref';
import { readAddress } from '../../shared/server-address';
import type { SettingsField } from '../store/settings-open';

const THEMES: { value: Theme; label: string }[] = [
  { value: 'system', label: 'System' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

/** GiB as typed ("24", "23.5"); '' means "probe it". */
function gibFrom(report: GpuReport | null): string {
  return report?.source === 'override' && report.usableBytes !== null ? String(Math.round((report.usableBytes / GIB) * 100) / 100) : '';
}

/**
 * Settings as a native modal dialog (focus inside, Tab kept inside, Escape cancels). The theme previews as it is
 * picked, and the connection picked is in use at once; Cancel or Escape puts the saved theme and the connection in
 * use before back. Escape or a click on the backdrop closes it only when nothing
 * was changed: with edits it asks first, so nothing typed is thrown away by a stray key or click (Escape again is
 * Keep editing). Cancel and the close button say what they do, and discard.
 */
export function SettingsPanel({ onClose, at = null }: { onClose: () => void; at?: SettingsField | null }) {
  const settings = useStore((s) => s.settings);
  const models = useStore((s) => s.models);
  const aliases = useStore((s) => s.aliases);
  const activeId = settings?.activeConnectionId ?? 'ollama';
  const activeName = useConnectionsStore((s) => s.connections.find((c) => c.id === activeId)?.label);
  const initial = {
    url: settings?.ollamaUrl ?? '',
    theme: settings?.theme ?? ('system' as Theme),
    // Kept by name before aliases were offered by id: shown as the entry it means.
    defaultChat: settings?.defaultChatModel ? refFor(settings.defaultChatModel, models, aliases) : '',
    modelsDir: settings?.modelsDir ?? '',
    idle: String(settings?.builtinIdleMinutes ?? 10),
  };
  // What the dialog showed as it opened: a field left as shown is not sent. Another tab may have changed it since this
  // one read the settings, and saving a new theme put its old models folder back (resilience audit R7).
  const [opened] = useState(initial);
  // A connection picked here applies at once (the picker lists its models as it is picked), like the theme's preview:
  // Cancel, × and Discard put back the one in use as Settings opened, and Save keeps it. Only a pick made here counts:
  // one made in another tab meanwhile is not undone. Before, Cancel left the server switched (closing notes s5).
  const [openedActive] = useState(activeId);
  const [picked, setPicked] = useState<string | null>(null);
  const openedActiveKept = useConnectionsStore((s) => s.connections.some((c) => c.id === openedActive));
  const switched = picked !== null && picked === activeId && picked !== openedActive && openedActiveKept;
  const [url, setUrl] = useState(initial.url);
  const [theme, setTheme] = useState<Theme>(initial.theme);
  const [defaultChat, setDefaultChat] = useState(initial.defaultChat);
  const [modelsDir, setModelsDir] = useState(initial.modelsDir);
  const [idle, setIdle] = useState(initial.idle);
  const [gpu, setGpu] = useState<GpuReport | null>(null);
  const [gpuGib, setGpuGib] = useState('');
  const [gpuTouched, setGpuTouched] = useState(false);
  // Read by the probe's answer, which may come after the user typed (the probe waits on slow GPU tools for seconds).
  const gpuTyped = useRef(false);
  // A refused Save's message, in the footer, and the field it is about: that field is marked invalid, described by
  // the message and focused, so a screen reader hears what is wrong where it is (only the footer said it).
  const [error, setErrorState] = useState<{ text: string; field: RefusableField | null } | null>(null);
  const setError = (text: string | null, field: RefusableField | null = null) => setErrorState(text === null ? null : { text, field });
  const errorId = useId();
  const fields: Record<RefusableField, RefObject<HTMLInputElement | null>> = {
    url: useRef<HTMLInputElement>(null),
    gpu: useRef<HTMLInputElement>(null),
    modelsDir: useRef<HTMLInputElement>(null),
    idle: useRef<HTMLInputElement>(null),
  };
  const refusal = (field: RefusableField) => (error?.field === field ? { 'aria-invalid': true, 'aria-describedby': errorId } : {});
  // Each refusal (a new object, even with the same words) focuses its field again, shown whole: the focus alone
  // scrolled the input just into view, with its name cut off above it (the address, refused with the folder below).
  useEffect(() => {
    const input = error?.field ? fields[error.field].current : null;
    input?.focus({ preventScroll: true });
    input?.closest('.field')?.scrollIntoView({ block: 'nearest' });
  }, [error]);
  // Opened at a field (the message box's "Set it" for the GPU memory): it takes the focus, shown whole with its name,
  // after the dialog has focused its first control (Modal's showModal, a layout effect, runs before this one).
  useEffect(() => {
    const input = at ? fields[at].current : null;
    input?.focus({ preventScroll: true });
    input?.closest('.settings-section')?.scrollIntoView({ block: 'nearest' });
    // Once, as it opens: `fields` is new at each render.
  }, [at]);
  const [confirming, setConfirming] = useState(false);
  // Where the focus was when the question came: Keep editing puts it back there, not at the top of the dialog.
  const askedFrom = useRef<Element | null>(null);
  const keepButton = useRef<HTMLButtonElement>(null);
  const ask = () => {
    askedFrom.current = document.activeElement;
    setConfirming(true);
  };
  const keepEditing = () => {
    setConfirming(false);
    const from = askedFrom.current;
    if (from instanceof HTMLElement && from.isConnected) requestAnimationFrame(() => from.focus());
  };

  useEffect(() => {
    let live = true;
    firebrand()
      .gpu.probe({})
      .then((report) => {
        if (!live) return;
        setGpu(report);
        // What the user typed while the probe was looking wins: filling the field from a late answer would save
        // the probe's value (or clear the setting) instead of theirs.
        if (!gpuTyped.current) setGpuGib(gibFrom(report));
      })
      .catch(() => undefined);
    return () => {
      live = false;
      // Whatever was previewed, the saved theme applies once the dialog is gone.
      useStore.setState({ previewTheme: null });
    };
  }, []);
  useEffect(() => {
    useStore.setState({ previewTheme: theme });
  }, [theme]);
  // The question takes the focus (autoFocus does not move it inside a modal already open): asked by a click on the
  // backdrop, the click's own focusing of the dialog came after, and the focus was left on the <dialog>.
  useEffect(() => {
    if (!confirming) return undefined;
    const frame = requestAnimationFrame(() => keepButton.current?.focus());
    return () => cancelAnimationFrame(frame);
  }, [confirming]);

  const toolFormTyped = useMcpStore((s) => s.formsTyped > 0);
  const connectionFormTyped = useConnectionFormsTyped();
  // A connection or tool server typed but not added is no part of Save or Cancel (those forms act at once): even the
  // buttons that say they discard ask before throwing it away.
  const formTyped = toolFormTyped || connectionFormTyped;
  const ollamaTyped = readAddress(url, 'ollama');
  const dirty = formTyped || switched || url !== opened.url || theme !== opened.theme || defaultChat !== opened.defaultChat || modelsDir !== opened.modelsDir || idle !== opened.idle || gpuTouched;

  // Closing the window or tab, or reloading it, asks too while something typed would be lost (Electron asks in
  // main: will-prevent-unload).
  useEffect(() => {
    if (!dirty) return undefined;
    const hold = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', hold);
    return () => window.removeEventListener('beforeunload', hold);
  }, [dirty]);

  // Leaving the page past that question (a reload, the tab or window closed) is a Discard: the connection picked and
  // not saved stayed in use (settings polish #6). Sent as the page goes, as a delete in its undo window is.
  useEffect(() => {
    if (!switched) return undefined;
    const putBack = () => void saveSettings({ activeConnectionId: openedActive });
    window.addEventListener('pagehide', putBack);
    return () => window.removeEventListener('pagehide', putBack);
  }, [switched, openedActive]);

  // Closing without saving: the connection in use goes back to the one Settings opened with.
  const discard = async () => {
    if (switched) await saveSettings({ activeConnectionId: openedActive });
    onClose();
  };

  const save = async () => {
    // `localhost:11434` and `localhost` are http://localhost:11434, as in the connection forms (shared/server-address.ts).
    const ollamaUrl = ollamaTyped.address;
    if (!/^https?:\/\/\S+$/.test(ollamaUrl)) return setError('Enter an Ollama address that starts with http:// or https://', 'url');
    const idleMinutes = idleMinutesFrom(idle);
    if ('problem' in idleMinutes) return setError(idleMinutes.problem, 'idle');
    const { minutes } = idleMinutes;
    const gib = gpuGib.trim() === '' ? null : Number(gpuGib);
    if (gib !== null && !(Number.isFinite(gib) && gib >= 0.25 && gib < 4096)) return setError('GPU memory is a number of GiB from 0.25 up, such as 24 (empty: find it out).', 'gpu');
    setError(null);
    if (gpuTouched && !(await setGpuOverride(gib === null ? null : Math.round(gib * GIB)))) return setError('The GPU memory could not be saved.', 'gpu');
    const patch: Partial<Settings> = {
      ...(url !== opened.url ? { ollamaUrl } : {}),
      ...(theme !== opened.theme ? { theme } : {}),
      ...(defaultChat !== opened.defaultChat ? { defaultChatModel: defaultChat === '' ? null : defaultChat } : {}),
      ...(modelsDir !== opened.modelsDir ? { modelsDir: modelsDir.trim() === '' ? null : modelsDir.trim() } : {}),
      ...(idle !== opened.idle ? { builtinIdleMinutes: minutes } : {}),
    };
    // Main's refusal (a folder that is not there, too many idle minutes) shows in the footer, beside Save, and marks
    // the field of the setting it names.
    if (await saveSettings(patch, (message, setting) => setError(message, refusedField({ message, setting }, patch)))) onClose();
  };
  // Enter in one of the dialog's own fields saves, as Enter in a connection's editor does; it did nothing (the dialog
  // is no form: the connection and tool forms inside it are forms of their own). The theme's radios and the default
  // model's list too: Enter there did nothing either. Only Enter: their arrow keys still choose.
  const saveOnEnter = (e: KeyboardEvent<HTMLInputElement | HTMLSelectElement>) => {
    if (e.key !== 'Enter' || e.nativeEvent.isComposing) return;
    e.preventDefault();
    void save();
  };
  const probed = gpu && gpu.source !== 'override' ? gpu : null;
  // The saved default may name a model or alias the active connection does not offer (one of another connection): it
  // is shown as what it is, so it can be seen and cleared. It read "the model used last", and picking that changed
  // nothing (settings audit #9).
  const savedDefault = opened.defaultChat;
  const offered = savedDefault === '' || models.some((m) => m.name === savedDefault) || aliases.some((a) => aliasRef(a.id) === savedDefault);

  // The built-in Ollama's address, in its row of the connections list: it was a field above the list, and the row showed
  // the same address again.
  const ollamaField = (
    <label className="field connection-address-field">
      Ollama address
      <input ref={fields.url} data-testid="settings-ollama-url" onKeyDown={saveOnEnter} {...refusal('url')} value={url} onChange={(e) => setUrl(e.target.value)} />
      {/* The dialog closes on Save, so what is assumed of an address typed without http:// is said before, as it is typed. */}
      {ollamaTyped.assumed !== null && (
        <span className="hint" data-testid="settings-ollama-url-note">
          Will be saved as {ollamaTyped.address}{ollamaTyped.assumed === 'scheme-and-port' ? ", Ollama's usual port" : ''}.
        </span>
      )}
    </label>
  );

  return (
    <Modal
      label="Settings"
      testId="settings-dialog"
      className="settings"
      onClose={(how) => {
        if (confirming) {
          if (how === 'escape') keepEditing();
        } else if (dirty) ask();
        else onClose();
      }}
    >
      <div className="modal-head">
        <h2>Settings</h2>
        <button type="button" className="icon-btn" data-testid="settings-close" aria-label="Close settings without saving" onClick={formTyped ? ask : () => void discard()}>
          <X className="icon" aria-hidden />
        </button>
      </div>
      <div className="modal-body">
        <section className="settings-section" aria-labelledby="settings-general">
          <h3 className="section-title" id="settings-general">General</h3>
          <fieldset className="theme-choice">
            <legend>Theme (shown as you pick it)</legend>
            {THEMES.map((t) => (
              <label key={t.value} className="radio">
                <input type="radio" name="theme" value={t.value} data-testid={`settings-theme-${t.value}`} onKeyDown={saveOnEnter} checked={theme === t.value} onChange={() => setTheme(t.value)} />
                {t.label}
              </label>
            ))}
          </fieldset>
          <label className="field">
            New chats start with
            <select data-testid="settings-default-model" onKeyDown={saveOnEnter} value={defaultChat} onChange={(e) => setDefaultChat(e.target.value)}>
              <option value="">the model used last</option>
              {!offered && (
                <option value={savedDefault} data-testid="settings-default-model-elsewhere">
                  {refLabel(savedDefault, aliases)} (not offered by {activeName ? `${activeName}, the active connection` : 'the active connection'})
                </option>
              )}
              {aliases.length > 0 && (
                <optgroup label="Aliases">
                  {aliases.map((a) => (
                    <option key={a.id} value={aliasRef(a.id)}>
                      {a.name} → {a.model}
                    </option>
                  ))}
                </optgroup>
              )}
              <optgroup label="Models">
                {models.map((m) => (
                  <option key={m.name} value={m.name}>
                    {m.name}
                  </option>
                ))}
              </optgroup>
            </select>
          </label>
        </section>
        <section className="settings-section" aria-labelledby="settings-servers">
          <h3 className="section-title" id="settings-servers">Servers</h3>
          {/* The Ollama row tests the address as it will be saved: typed as localhost:11434, with the http:// assumed. */}
          <ConnectionsSection ollamaDraft={ollamaTyped.address} ollamaField={ollamaField} onPicked={setPicked} />
        </section>
        <section className="settings-section" aria-labelledby="settings-tools">
          <h3 className="section-title" id="settings-tools">Tools</h3>
          <ToolsSection />
        </section>
        <section className="settings-section" aria-labelledby="settings-gpu">
          <h3 className="section-title" id="settings-gpu">GPU memory</h3>
          <label className="field">
            GPU memory in GiB (empty: find it out)
            <input
              ref={fields.gpu}
              data-testid="gpu-override" onKeyDown={saveOnEnter}
              {...refusal('gpu')}
              inputMode="decimal"
              placeholder={probed?.usableBytes ? `${(probed.usableBytes / GIB).toFixed(1)} (found)` : 'e.g. 24'}
              value={gpuGib}
              onChange={(e) => {
                setGpuGib(e.target.value);
                setGpuTouched(true);
                gpuTyped.current = true;
              }}
            />
            <span className="hint" data-testid="gpu-found">
              {gpuFoundLine(gpu)}
            </span>
          </label>
        </section>
        <section className="settings-section" aria-labelledby="settings-builtin">
          <h3 className="section-title" id="settings-builtin">Built-in engine</h3>
          <label className="field">
            Models folder
            <input ref={fields.modelsDir} data-testid="models-folder" onKeyDown={saveOnEnter} {...refusal('modelsDir')} placeholder="the default, in Firebrand's data folder" value={modelsDir} onChange={(e) => setModelsDir(e.target.value)} />
          </label>
          <label className="field">
            Unload a built-in model after this many idle minutes (0: never)
            <input ref={fields.idle} data-testid="builtin-idle-minutes" onKeyDown={saveOnEnter} {...refusal('idle')} inputMode="numeric" value={idle} onChange={(e) => setIdle(e.target.value)} />
          </label>
        </section>
      </div>
      <div className="modal-foot">
        {error && (
          <p role="alert" className="field-error" id={errorId} data-testid="settings-error">
            {error.text}
          </p>
        )}
        {confirming ? (
          <span className="settings-unsaved" role="alertdialog" aria-label="Unsaved changes" data-testid="settings-unsaved">
            <span>{formTyped ? 'A connection or tool server you typed is not added or saved yet.' : 'You have unsaved changes.'}</span>
            <button type="button" ref={keepButton} onClick={keepEditing}>
              Keep editing
            </button>
            <button type="button" className="danger" data-testid="settings-discard" onClick={() => void discard()}>
              Discard
            </button>
          </span>
        ) : (
          <>
            <button type="button" data-testid="settings-cancel" onClick={formTyped ? ask : () => void discard()}>
              Cancel
            </button>
            <button type="button" className="primary" data-testid="settings-save" onClick={() => void save()}>
              Save
            </button>
          </>
        )}
      </div>
    </Modal>
  );
}
