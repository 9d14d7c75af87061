import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { app, BrowserWindow, shell } from 'electron';

export interface MainWindowOptions {
  /** The API root the renderer talks to, e.g. http://127.0.0.1:8787/api/v1. */
  apiBase: string;
  /** The Vite dev server in `electron-vite dev`; the built renderer otherwise. */
  rendererUrl?: string;
}

/** True when `target` stays inside the app: same origin for http(s), same file for file://. */
function isAppUrl(target: string, appUrl: URL): boolean {
  try {
    const url = new URL(target);
    return appUrl.protocol === 'file:'
      ? url.protocol === 'file:' && url.pathname === appUrl.pathname
      : url.origin === appUrl.origin;
  } catch {
    return false;
  }
}

export function createMainWindow({ apiBase, rendererUrl }: MainWindowOptions): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 840,
    show: false,
    title: 'Launchpad Companion',
    webPreferences: {
      // app.getAppPath() is the project (or asar) root, so this holds whatever the main bundle's layout is.
      preload: join(app.getAppPath(), 'out/preload/index.cjs'),
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      webSecurity: true,
      additionalArguments: [`--api-base=${apiBase}`],
    },
  });

  const indexHtml = join(app.getAppPath(), 'out/renderer/index.html');
  const appUrl = rendererUrl ? new URL(rendererUrl) : pathToFileURL(indexHtml);

  win.webContents.setWindowOpenHandler(({ url }) => {
    // Links to explorers and docs open in the user's browser, never inside the app.
    if (url.startsWith('https://')) void shell.openExternal(url);
    return { action: 'deny' };
  });
  win.webContents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url, appUrl)) event.preventDefault();
  });
  win.webContents.session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  win.once('ready-to-show', () => win.show());

  if (rendererUrl) void win.loadURL(rendererUrl);
  else void win.loadFile(indexHtml);
  return win;
}
