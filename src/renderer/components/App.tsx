import { useState } from 'react';
import { useStore } from '../store';
import { ChatView } from './ChatView';
import { ErrorBoundary } from './ErrorBoundary';
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
  const serveProblem = useStore((s) => s.serveProblem);
  const activeId = useStore((s) => s.activeId);
  return (
    <div className="app">
      <ErrorBoundary what="The conversation list">
        <Sidebar onOpenSettings={() => setSettingsOpen(true)} />
      </ErrorBoundary>
      <main className="main">
        {serveProblem && (
          <div className="banner banner-error" role="alert" data-testid="serve-problem">
            {serveProblem}
          </div>
        )}
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
        <ErrorBoundary what="This conversation" resetKey={activeId}>
          <ChatView />
        </ErrorBoundary>
        <ErrorBoundary what="The message box">
          <Composer />
        </ErrorBoundary>
      </main>
      {settingsOpen && (
        <ErrorBoundary what="Settings">
          <SettingsPanel onClose={() => setSettingsOpen(false)} />
        </ErrorBoundary>
      )}
      <AttachmentPreview />
    </div>
  );
}
