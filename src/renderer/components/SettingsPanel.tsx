import { useState } from 'react';
import { saveSettings, useStore } from '../store';

export function SettingsPanel({ onClose }: { onClose: () => void }) {
  const settings = useStore((s) => s.settings);
  const [url, setUrl] = useState(settings?.ollamaUrl ?? '');
  const [error, setError] = useState<string | null>(null);
  const save = async () => {
    if (!/^https?:\/\/\S+$/.test(url.trim())) {
      setError('Enter an address that starts with http:// or https://');
      return;
    }
    if (await saveSettings({ ollamaUrl: url.trim() })) onClose();
  };
  return (
    <div className="modal" role="dialog" aria-label="Settings">
      <h2>Settings</h2>
      <label>
        Ollama address
        <input data-testid="settings-ollama-url" value={url} onChange={(e) => setUrl(e.target.value)} />
      </label>
      {error && <p role="alert" className="field-error">{error}</p>}
      <div className="modal-actions">
        <button type="button" onClick={onClose}>Cancel</button>
        <button type="button" data-testid="settings-save" onClick={() => void save()}>Save</button>
      </div>
    </div>
  );
}
