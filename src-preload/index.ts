import { contextBridge, ipcRenderer } from 'electron';
import { APP_CHANNEL_IPC, type CompanionBridge } from './bridge';

// Main passes the API root as `--api-base=URL` and the run's token as `--app-token=` (webPreferences.additionalArguments).
const API_BASE_ARG = '--api-base=';
const apiBase = process.argv.find((arg) => arg.startsWith(API_BASE_ARG))?.slice(API_BASE_ARG.length) ?? '';
const APP_TOKEN_ARG = '--app-token=';
const appToken = process.argv.find((arg) => arg.startsWith(APP_TOKEN_ARG))?.slice(APP_TOKEN_ARG.length) ?? '';

// Only this one function crosses the bridge: the page never gets ipcRenderer itself.
const bridge: CompanionBridge = {
  apiBase,
  platform: 'electron',
  appToken,
  invoke: (operation, input) => ipcRenderer.invoke(APP_CHANNEL_IPC, String(operation), input),
};
contextBridge.exposeInMainWorld('companion', bridge);
