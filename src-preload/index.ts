import { contextBridge } from 'electron';
import type { CompanionBridge } from './bridge';

// Main passes the API root as `--api-base=URL` (webPreferences.additionalArguments).
const API_BASE_ARG = '--api-base=';
const apiBase = process.argv.find((arg) => arg.startsWith(API_BASE_ARG))?.slice(API_BASE_ARG.length) ?? '';

const bridge: CompanionBridge = { apiBase, platform: 'electron' };
contextBridge.exposeInMainWorld('companion', bridge);
