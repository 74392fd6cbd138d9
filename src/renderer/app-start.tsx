/** The app itself, loaded by main.tsx once boot.ts has sent the first requests: the store and the first render. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './components/App';
import { onServeProblem, onServeReconnected } from './boot';
import { connectStore, useStore } from './store';
import { flushPendingDeletes } from './store/conversation-actions';
import { loadMarkdown } from './markdown/lazy-render';
import { keepOpenConversation, reopenAfterReload } from './store/reopen-on-reload';
import { loadSavedDrafts, persistDraftsOnHide } from './store/drafts';
import { resyncAfterReconnect } from './store/resync';
import { pruneEditDrafts } from './store/edit-drafts';

onServeProblem((serveProblem) => useStore.setState({ serveProblem }));
onServeReconnected(() => void resyncAfterReconnect());
keepOpenConversation();
persistDraftsOnHide();
loadSavedDrafts();
const firstScreen = connectStore();
const reopen = () => void reopenAfterReload();
void firstScreen.then(reopen, reopen);
// Edits kept for messages gone since (edit-drafts.ts): asked once the first screen is up, off the start's path.
void firstScreen.finally(() => void pruneEditDrafts());
// A delete still inside its undo window is what the user asked for: closing the window commits it.
window.addEventListener('pagehide', flushPendingDeletes);

const root = document.getElementById('root');
if (root) createRoot(root).render(<StrictMode><App /></StrictMode>);
// Answers need the markdown code: fetched once the first screen has what it shows and the window is idle, so
// its evaluation (half the app's code) does not hold up the composer (bench/start), and as a rule before a chat is
// opened; an answer shown sooner asks for it itself (lazy-render.ts).
const idle = window.requestIdleCallback ?? ((run: () => void) => setTimeout(run, 200));
void firstScreen.finally(() => idle(() => void loadMarkdown(), { timeout: 1500 }));
