import { useEffect, useState } from 'react';
import type { Theme } from '../../shared/ipc';
import { saveSettings, useStore } from '../store';
import { ConnectionsSection } from './settings/ConnectionsSection';
import { ToolsSection } from './tools/ToolsSection';

const THEMES: { value: Theme; label: string }[] = [
  { value: 'system', label: 'System' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

export function SettingsPanel({ onClose }: { onClose: () => void }) {
  const settings = useStore((s) => s.settings);
  const [url, setUrl] = useState(settings?.ollamaUrl ?? '');
  const [theme, setTheme] = useState<Theme>(settings?.theme ?? 'system');
  const models = useStore((s) => s.models);
  const aliases = useStore((s) => s.aliases);
  const [defaultChat, setDefaultChat] = useState(settings?.defaultChatModel ?? '');
  const [modelsDir, setModelsDir] = useState(settings?.modelsDir ?? '');
  const [idle, setIdle] = useState(String(settings?.builtinIdleMinutes ?? 10));
  const [error, setError] = useState<string | null>(null);
  const save = async () => {
    if (!/^https?:\/\/\S+$/.test(url.trim())) {
      setError('Enter an address that starts with http:// or https://');
      return;
    }
    const minutes = Number(idle);
    if (!Number.isInteger(minutes) || minutes < 0) {
      setError('Idle minutes is a whole number (0 keeps models loaded).');
      return;
    }
    const patch = { ollamaUrl: url.trim(), theme, defaultChatModel: defaultChat === '' ? null : defaultChat, modelsDir: modelsDir.trim() === '' ? null : modelsDir.trim(), builtinIdleMinutes: minutes };
    if (await saveSettings(patch)) onClose();
  };
  // Escape closes from anywhere: after "Test connection" the focus may have left the dialog (its button was
  // disabled while testing), and a listener on the dialog would no longer hear the key (issue 13).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      // Handled here: the app-wide Escape (stop the answer) leaves a prevented key alone.
      e.preventDefault();
      onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <div className="modal-backdrop" onClick={onClose}>
      <div className="modal" role="dialog" aria-label="Settings" onClick={(e) => e.stopPropagation()}>
        <h2>Settings</h2>
        <label>
          Ollama address
          <input data-testid="settings-ollama-url" value={url} onChange={(e) => setUrl(e.target.value)} />
        </label>
        <label>
          New chats start with
          <select data-testid="settings-default-model" value={defaultChat} onChange={(e) => setDefaultChat(e.target.value)}>
            <option value="">the model used last</option>
            {aliases.length > 0 && (
              <optgroup label="Aliases">
                {aliases.map((a) => (
                  <option key={a.id} value={a.name}>{a.name} → {a.model}</option>
                ))}
              </optgroup>
            )}
            <optgroup label="Models">
              {models.map((m) => (
                <option key={m.name} value={m.name}>{m.name}</option>
              ))}
            </optgroup>
          </select>
        </label>
        <label>
          Models folder (built-in engine)
          <input data-testid="models-folder" placeholder="the default, in Firebrand's data folder" value={modelsDir} onChange={(e) => setModelsDir(e.target.value)} />
        </label>
        <label>
          Unload a built-in model after this many idle minutes (0: never)
          <input data-testid="builtin-idle-minutes" inputMode="numeric" value={idle} onChange={(e) => setIdle(e.target.value)} />
        </label>
        <ConnectionsSection />
        <ToolsSection />
        <fieldset className="theme-choice">
          <legend>Theme</legend>
          {THEMES.map((t) => (
            <label key={t.value} className="radio">
              <input type="radio" name="theme" value={t.value} data-testid={`settings-theme-${t.value}`} checked={theme === t.value} onChange={() => setTheme(t.value)} />
              {t.label}
            </label>
          ))}
        </fieldset>
        {error && (
          <p role="alert" className="field-error">
            {error}
          </p>
        )}
        <div className="modal-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="button" data-testid="settings-save" onClick={() => void save()}>
            Save
          </button>
        </div>
      </div>
    </div>
  );
}
