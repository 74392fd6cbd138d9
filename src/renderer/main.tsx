import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './components/App';
import { createServeBridge } from './serve-bridge';
import { connectStore, useStore } from './store';
import { flushPendingDeletes } from './store/conversation-actions';
import { loadMarkdown } from './markdown/lazy-render';
import './styles.css';

// Electron's preload has already set window.firebrand; a browser in serve mode gets it from the shim.
if (!(window as Partial<Window>).firebrand) {
  window.firebrand = createServeBridge(window.location, (problem) => useStore.setState({ serveProblem: problem?.message ?? null }));
}
const firstScreen = connectStore();
// A delete still inside its undo window is what the user asked for: closing the window commits it.
window.addEventListener('pagehide', flushPendingDeletes);

const root = document.getElementById('root');
if (root) createRoot(root).render(<StrictMode><App /></StrictMode>);
// Answers need the markdown code: fetched once the first screen has what it shows and the window is idle, so
// its evaluation (half the app's code) does not hold up the composer (bench/start), and as a rule before a chat is
// opened; an answer shown sooner asks for it itself (lazy-render.ts).
const idle = window.requestIdleCallback ?? ((run: () => void) => setTimeout(run, 200));
void firstScreen.finally(() => idle(() => void loadMarkdown(), { timeout: 1500 }));
