import { useState } from 'react';
import { useStore } from '../store';
import { ChatView } from './ChatView';
import { useShortcuts } from '../hooks/use-shortcuts';
import { useTheme } from '../hooks/use-theme';
import { Composer } from './composer/Composer';
import { SettingsPanel } from './SettingsPanel';
import { AttachmentPreview } from './turn/AttachmentPreview';
import { Sidebar } from './Sidebar';

export function App() {
  const [settingsOpen, setSettingsOpen] = useState(false);
  useTheme();
  useShortcuts();
  const notice = useStore((s) => s.notice);
  const modelsError = useStore((s) => s.modelsError);
  return (
    <div className="app">
      <Sidebar onOpenSettings={() => setSettingsOpen(true)} />
      <main className="main">
        {modelsError && (
          <div className="banner banner-error" role="alert" data-testid="models-error">
            {modelsError}{' '}
            <button type="button" onClick={() => setSettingsOpen(true)}>Settings</button>
          </div>
        )}
        {notice && (
          <div className="banner banner-error" role="alert" data-testid="notice">
            {notice}
          </div>
        )}
        <ChatView />
        <Composer />
      </main>
      {settingsOpen && <SettingsPanel onClose={() => setSettingsOpen(false)} />}
      <AttachmentPreview />
    </div>
  );
}
