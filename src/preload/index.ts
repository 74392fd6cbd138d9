/**
 * Exposes `window.firebrand`, built from the contract over Electron IPC. Nothing else crosses: no raw
 * ipcRenderer, and only the contract's channels are reachable. Besides it, `window.firebrandFiles.pathFor` gives
 * a dropped file's location on disk (Electron hides `File.path`), so a GGUF dropped on Models is added by path.
 */
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { asRefusalData, buildBridge } from '../shared/bridge';
import type { IpcResult } from '../shared/ipc';

const api = buildBridge({
  invoke: (channel, payload) => ipcRenderer.invoke(channel, payload) as Promise<IpcResult<unknown>>,
  subscribe: (channel, listener) => {
    const wrapped = (_event: unknown, payload: unknown) => listener(payload);
    ipcRenderer.on(channel, wrapped);
    return () => {
      ipcRenderer.removeListener(channel, wrapped);
    };
  },
  // A FirebrandError crossing contextBridge would reach the page as a bare Error (message only): boot.ts rebuilds it.
}, asRefusalData);

contextBridge.exposeInMainWorld('firebrand', api);

contextBridge.exposeInMainWorld('firebrandFiles', { pathFor: (file: File) => webUtils.getPathForFile(file) });
