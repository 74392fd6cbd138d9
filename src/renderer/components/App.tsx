import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { useStore } from '../store';
import { ChatView } from './ChatView';
import { ErrorBoundary } from './ErrorBoundary';
import { useShortcuts } from '../hooks/use-shortcuts';
import { useTheme } from '../hooks/use-theme';
import { NARROW, useMediaQuery } from '../hooks/use-media';
import { useBackCloses } from '../hooks/use-back-closes';
import { Composer } from './composer/Composer';
import { AttachmentPreview } from './turn/AttachmentPreview';
import { Sidebar } from './Sidebar';
import { Banners } from './frame/Banners';
import { Topbar } from './frame/Topbar';
import { Announcer } from './frame/Announcer';
import { ShortcutsOverlay } from './frame/ShortcutsOverlay';
import { closeSettings, openSettings, useSettingsOpen } from '../store/settings-open';

// Loaded when first opened: the start pays only for the chat and the composer (bench/start).
const SettingsPanel = lazy(() => import('./SettingsPanel').then((m) => ({ default: m.SettingsPanel })));

/**
 * The frame: sidebar (a column from 861 px, a drawer below), the banners, the chat and the composer. The
 * sidebar toggle collapses the column on a wide window and opens the drawer on a narrow one.
 */
export function App() {
  // In a store: the message box's "Set it" opens it too, at GPU memory (store/settings-open.ts).
  const settingsOpen = useSettingsOpen((s) => s.open);
  const settingsAt = useSettingsOpen((s) => s.at);
  const narrow = useMediaQuery(NARROW);
  const [collapsed, setCollapsed] = useState(false);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const toggleButton = useRef<HTMLButtonElement>(null);
  useTheme();
  const activeId = useStore((s) => s.activeId);

  // Settings gives the focus back to what opened it (Modal). Where that is gone (a banner that went away) or
  // hidden (the drawer closed as Settings opened, maybe still sliding out), the focus goes to the Settings button,
  // or on a narrow window to the toggle that shows it, rather than to <body>.
  const settingsWasOpen = useRef(false);
  useEffect(() => {
    if (!settingsOpen && settingsWasOpen.current) {
      const active = document.activeElement;
      const inClosedDrawer = narrow && !drawerOpen && active !== null && document.getElementById('sidebar')?.contains(active) === true;
      if (active === null || active === document.body || inClosedDrawer) {
        if (narrow && !drawerOpen) toggleButton.current?.focus();
        else document.querySelector<HTMLElement>('[data-testid="settings-open"]')?.focus();
      }
    }
    settingsWasOpen.current = settingsOpen;
  }, [settingsOpen, narrow, drawerOpen]);
  // A drawer left open on a narrow window is not kept when the window grows (the column shows instead).
  useEffect(() => {
    if (!narrow) setDrawerOpen(false);
  }, [narrow]);
  // Whether the drawer has opened since the window last became narrow: from then on its close slides too (its
  // open always does). Not before: the switch from the column would slide the sidebar out (styles/layout.css).
  const [drawerUsed, setDrawerUsed] = useState(false);
  const used = narrow && (drawerUsed || drawerOpen);
  if (used !== drawerUsed) setDrawerUsed(used);
  // Rendered at once: while the drawer is open the main column is inert and the toggle could not take the focus.
  const closeDrawer = (returnFocus: boolean) => {
    flushSync(() => setDrawerOpen(false));
    if (returnFocus) toggleButton.current?.focus();
  };
  const drawerShown = narrow && drawerOpen;
  useShortcuts({
    show: () => flushSync(() => (narrow ? setDrawerOpen(true) : setCollapsed(false))),
    closeDrawer: () => {
      if (!drawerShown) return false;
      closeDrawer(true);
      return true;
    },
  });
  // The browser's back closes the drawer, as a phone's back closes an app's (touch audit #8).
  useBackCloses(narrow && drawerOpen, () => closeDrawer(true));
  const sidebarShown = narrow ? drawerOpen : !collapsed;
  const classes = ['app', !narrow && collapsed ? 'sidebar-collapsed' : '', narrow && drawerOpen ? 'drawer-open' : '', drawerUsed ? 'drawer-used' : ''].filter(Boolean).join(' ');
  return (
    <div className={classes}>
      <ErrorBoundary what="The conversation list">
        <Sidebar
          drawer={narrow}
          open={sidebarShown}
          // A dialog opened from the drawer closes it: closing the dialog shows the chat, not the drawer over it.
          onOpenSettings={() => {
            setDrawerOpen(false);
            openSettings();
          }}
          onOpenModels={() => setDrawerOpen(false)}
          focusPastDrawer={() => {
            if (!narrow || drawerOpen) return false;
            toggleButton.current?.focus();
            return true;
          }}
          // The drawer closes over what had the focus: it goes to the toggle, as when Escape closes it.
          onNavigate={() => narrow && closeDrawer(true)}
          onClose={() => closeDrawer(true)}
        />
      </ErrorBoundary>
      {narrow && drawerOpen && <button type="button" className="scrim" aria-label="Close the conversation list" tabIndex={-1} onClick={() => closeDrawer(true)} />}
      {/* The drawer is modal: what is behind the scrim takes no focus and no clicks (keyboard audit #2). */}
      <main className="main" inert={drawerShown}>
        <Topbar
          toggleRef={toggleButton}
          sidebarShown={sidebarShown}
          onToggle={() => (narrow ? setDrawerOpen((o) => !o) : setCollapsed((c) => !c))}
        />
        <Banners onOpenSettings={() => openSettings()} />
        <ErrorBoundary what="This conversation" resetKey={activeId}>
          <ChatView />
        </ErrorBoundary>
        <ErrorBoundary what="The message box">
          <Composer />
        </ErrorBoundary>
      </main>
      {settingsOpen && (
        <ErrorBoundary what="Settings">
          <Suspense fallback={null}>
            <SettingsPanel at={settingsAt} onClose={closeSettings} />
          </Suspense>
        </ErrorBoundary>
      )}
      <AttachmentPreview />
      <ShortcutsOverlay />
      <Announcer />
    </div>
  );
}
