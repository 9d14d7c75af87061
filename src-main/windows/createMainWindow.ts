import { join } from 'node:path';
import { app, BrowserWindow, shell } from 'electron';

export interface MainWindowOptions {
  /** The API root the renderer talks to, e.g. http://127.0.0.1:8787/api/v1. */
  apiBase: string;
  /** Where the UI is loaded from: the service's own origin, or the Vite dev server in `electron-vite dev`. */
  appUrl: string;
}

/** True when `target` stays inside the app (same origin). */
function isAppUrl(target: string, appUrl: URL): boolean {
  try {
    return new URL(target).origin === appUrl.origin;
  } catch {
    return false;
  }
}

export function createMainWindow({ apiBase, appUrl }: MainWindowOptions): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 840,
    show: false,
    // Only until the page loads: the renderer names each page in document.title ("Launches · Launchpad Companion"),
    // and with no 'page-title-updated' handler here the window follows it.
    title: 'Launchpad Companion',
    // Beside out/ under the same root as the preload, in `electron-vite dev` as in a build (Linux and Windows use it;
    // macOS takes the bundle's icon).
    icon: join(app.getAppPath(), 'resources/icon.png'),
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

  const appOrigin = new URL(appUrl);

  win.webContents.setWindowOpenHandler(({ url }) => {
    // Links to explorers and docs open in the user's browser, never inside the app.
    if (url.startsWith('https://')) void shell.openExternal(url);
    return { action: 'deny' };
  });
  win.webContents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url, appOrigin)) event.preventDefault();
  });
  // No webviews: they would run remote content outside the window's sandbox and CSP.
  win.webContents.on('will-attach-webview', (event) => event.preventDefault());
  win.webContents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url, appOrigin)) event.preventDefault();
  });
  win.webContents.session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  win.webContents.session.setPermissionCheckHandler(() => false);
  win.once('ready-to-show', () => win.show());

  void win.loadURL(appUrl);
  return win;
}
