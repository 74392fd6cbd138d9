/**
 * The Electron shell: the only place (with the preload) that imports electron. It opens the window, serves the
 * renderer from an `app://` origin with the CSP header, and carries the IPC contract over ipcMain through the
 * same dispatcher serve mode uses, after checking that the call comes from the app's own main frame.
 */
import { app, BrowserWindow, dialog, ipcMain, net, protocol, safeStorage, session, shell } from 'electron';
import { existsSync } from 'node:fs';
import { dirname, join, normalize, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { INVOKE_CHANNELS, type EventChannel } from '../../shared/ipc';
import { batchEvents } from '../ipc/event-batch';
import { contentSecurityPolicy } from '../serve/csp';
import { chooseSecretStore } from '../secrets/choose-secret-store';
import { createServices, type Services } from '../services';
import { APP_SCHEME } from './app-scheme';
import { utilitySpawner } from './engine-utility';
import { utilityReader } from './reader-utility';
import { createMainWindow } from './window-options';
import { reportDownloadOutcome } from './download-outcome';
import { APP_ORIGIN, guardInvoke } from './ipc-guard';
import { guardWebContents, noRemoteContent } from './web-contents-guard';

const here = dirname(fileURLToPath(import.meta.url));
const rendererDir = join(here, '../renderer');

protocol.registerSchemesAsPrivileged([APP_SCHEME]);

// Every web contents, whoever creates it, is guarded before it can load anything (issue 15).
app.on('web-contents-created', (_event, contents) => {
  guardWebContents(contents, (url) => void shell.openExternal(url), (m) => console.error(m));
  noRemoteContent(contents.session);
});

/** The better-sqlite3 binding built for Electron's ABI by scripts/start.mjs, when there is one. */
function electronSqliteBinding(): string | undefined {
  const file = join(here, `../native/electron-${process.versions.electron}/better_sqlite3.node`);
  return existsSync(file) ? file : undefined;
}

app.whenReady().then(() => {
  const nativeBinding = electronSqliteBinding();
  const dataDir = process.env.FIREBRAND_DATA_DIR ?? app.getPath('userData');
  // API keys: encrypted through safeStorage only where it has a real OS keyring; otherwise a private file, and
  // Settings says which (src/main/secrets/choose-secret-store.ts).
  const secrets = chooseSecretStore(dataDir, safeStorage, process.platform, (m) => console.error(m));
  const builtinEngine = utilitySpawner(join(here, 'builtin-engine.js'), (line) => console.error(line));
  const documentReader = utilityReader(join(here, 'extract-process.js'));
  let services: Services;
  try {
    services = createServices({ dataDir, secrets, builtinEngine, documentReader, watchServers: true, prefetchModelList: true, ...(nativeBinding ? { nativeBinding } : {}) });
  } catch (err) {
    // Refused (another Firebrand on this data folder, a database from a newer version) or broken: said in a box,
    // never a process left running with no window.
    dialog.showErrorBox('Firebrand could not start', err instanceof Error ? err.message : String(err));
    app.exit(1);
    return;
  }

  protocol.handle('app', async (request) => {
    const url = new URL(request.url);
    const file = normalize(join(rendererDir, url.pathname === '/' ? 'index.html' : decodeURIComponent(url.pathname)));
    if (url.host !== 'firebrand' || !file.startsWith(rendererDir + sep)) return new Response(null, { status: 404 });
    const res = await net.fetch(pathToFileURL(file).toString());
    const headers = new Headers(res.headers);
    headers.set('content-security-policy', contentSecurityPolicy());
    headers.set('x-content-type-options', 'nosniff');
    return new Response(res.body, { status: res.status, headers });
  });

  // Nothing asks the user for camera, notifications, geolocation...: every permission request is denied.
  noRemoteContent(session.defaultSession);
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);

  const win = createMainWindow(BrowserWindow, join(here, '../preload/index.cjs'));
  // The page holds unsaved edits (Settings, while something is typed) and its beforeunload held the close: Electron
  // would cancel the close without a word, so the user is asked here. preventDefault lets the page go.
  win.webContents.on('will-prevent-unload', (event) => {
    const choice = dialog.showMessageBoxSync(win, {
      type: 'question',
      buttons: ['Close and discard', 'Keep editing'],
      defaultId: 1,
      cancelId: 1,
      title: 'Unsaved changes',
      message: 'Settings has unsaved changes.',
      detail: 'Closing now discards what you typed there.',
    });
    if (choice === 0) event.preventDefault();
  });

  // Events go to the window as serve mode sends them to its page: a streaming turn's parts joined, at most one
  // message per half frame (../ipc/event-batch.ts).
  const events = batchEvents((channel: EventChannel, payload: unknown) => {
    if (!win.isDestroyed()) win.webContents.send(channel, payload);
  });
  for (const channel of INVOKE_CHANNELS) {
    ipcMain.handle(channel, async (event, payload: unknown) => {
      const result = await guardInvoke({ channel, payload, senderFrame: event.senderFrame, mainFrame: win.webContents.mainFrame }, services.dispatcher, (m) => console.error(m));
      // Events the invoke emitted (a send's turns) arrive before its result, as they did unbatched.
      events.flush();
      return result;
    });
  }
  services.hub.connect(events.event);
  // An export's download opens the save dialog: the page says "Exported" once this says it was written
  // (./download-outcome.ts). Only this window's downloads are its exports.
  win.webContents.session.on('will-download', (_event, item, contents) => {
    if (contents === win.webContents) reportDownloadOutcome(item, events.event);
  });

  // Navigation, webviews and window.open are refused by the guard above (links go to the system browser).
  win.once('ready-to-show', () => win.show());
  void win.loadURL(`${APP_ORIGIN}/index.html`);

  app.on('window-all-closed', () => {
    services.close();
    // MCP servers get a few seconds to stop; any still running die with this process (src/main/mcp).
    void Promise.race([services.closed, new Promise((r) => setTimeout(r, 3000))]).then(() => app.quit());
  });
});
