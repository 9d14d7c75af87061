import { contextBridge, ipcRenderer } from 'electron';
import { APP_CHANNEL_IPC, type CompanionBridge } from './bridge';

// Main passes the API root as `--api-base=URL` (webPreferences.additionalArguments).
const API_BASE_ARG = '--api-base=';
const apiBase = process.argv.find((arg) => arg.startsWith(API_BASE_ARG))?.slice(API_BASE_ARG.length) ?? '';

// Only this one function crosses the bridge: the page never gets ipcRenderer itself.
const bridge: CompanionBridge = {
  apiBase,
  platform: 'electron',
  invoke: (operation, input) => ipcRenderer.invoke(APP_CHANNEL_IPC, String(operation), input),
};
contextBridge.exposeInMainWorld('companion', bridge);
