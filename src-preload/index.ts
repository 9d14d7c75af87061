import { contextBridge, ipcRenderer } from 'electron';
import { APP_CHANNEL_IPC, APP_TOKEN_IPC, type CompanionBridge } from './bridge';

// Main passes the API root as `--api-base=URL` (webPreferences.additionalArguments).
const API_BASE_ARG = '--api-base=';
const apiBase = process.argv.find((arg) => arg.startsWith(API_BASE_ARG))?.slice(API_BASE_ARG.length) ?? '';

// Only these functions cross the bridge: the page never gets ipcRenderer itself.
const bridge: CompanionBridge = {
  apiBase,
  platform: 'electron',
  appToken: () => ipcRenderer.invoke(APP_TOKEN_IPC).then((token: unknown) => String(token ?? '')),
  invoke: (operation, input) => ipcRenderer.invoke(APP_CHANNEL_IPC, String(operation), input),
};
contextBridge.exposeInMainWorld('companion', bridge);
