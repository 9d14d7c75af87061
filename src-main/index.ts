import { join } from 'node:path';
import { app, BrowserWindow, dialog, Notification, safeStorage, utilityProcess } from 'electron';
import { desktopDefaults, readConfig } from './config/readConfig';
import { APP_LINK_SCHEME, appPathOfLink } from './core/appPages';
import { serveAppChannelIpc } from './ipc/appChannelIpc';
import { serveAppTokenIpc } from './ipc/appTokenIpc';
import { createLogger, type Logger, silentLogger } from './log/createLogger';
import { rotatingFile } from './log/rotatingFile';
import { nativeConfirmer } from './services/signingConfirmer';
import { KEY_WORKER_BUNDLE, utilityKeyWorker } from './signer/keyWorker/keyWorkerLaunchers';
import { keychainCipher } from './signer/localKey/keyCipher';
import { type RunningService, type ServiceOptions, startService } from './startService';
import { createMainWindow } from './windows/createMainWindow';
import { showAlertsOnDesktop } from './windows/desktopNotifications';
import { electronAsk } from './windows/nativeConfirm';

/** The run's logger once the configuration is read: JSON lines to the rotating log file, readable lines to a terminal. */
let logger: Logger | undefined;

/**
 * The service's options from the same flags, environment variables and saved settings as the headless server (see
 * readConfig), with the desktop's own defaults under userData; opens the log file they name.
 */
function readOptions(): ServiceOptions {
  const { settingsProblem, logLevel, logFile, ...config } = readConfig({
    // Electron's own arguments (the executable, in development the app folder) and Chromium's switches are passed over.
    args: process.argv.slice(1),
    env: process.env,
    entry: 'desktop',
    defaults: desktopDefaults({ userData: app.getPath('userData'), appPath: app.getAppPath() }),
  });
  logger = createLogger({
    level: logLevel,
    ...(logFile ? { file: rotatingFile(logFile) } : {}),
    ...(process.stdout.isTTY ? { stream: process.stdout } : {}),
  });
  if (settingsProblem) logger.child({ component: 'settings' }).warn(settingsProblem);
  return {
    ...config,
    logFile,
    // The local key is sealed by the OS keychain in the desktop app: no passphrase to type at each start.
    keyCipher: keychainCipher(safeStorage),
    // The unlocked key lives in a utility process of its own (out/main/keyWorker.js, built beside this file), never in
    // main, which serves the HTTP API; only main has safeStorage, so it seals that process's key-encryption key.
    keyWorker: utilityKeyWorker(utilityProcess, join(import.meta.dirname, KEY_WORKER_BUNDLE)),
    // What main warns about is confirmed in main's own dialog, which nothing in the page can press.
    signingConfirmer: nativeConfirmer(electronAsk(dialog, BrowserWindow)),
    logger,
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

let service: Promise<RunningService> | undefined;
let running: RunningService | undefined;
let closing: Promise<void> | undefined;
let readyToQuit = false;

function closeService(): Promise<void> {
  // Waits out a start still in progress too, so quitting during devnet start-up still closes the database.
  closing ??= service
    ? service.then(
        (running) => running.close(),
        () => undefined,
      )
    : Promise.resolve();
  return closing;
}

/** A shared link (launchpad-companion://app/token/0x…?r=…) that arrived before the window could open it. */
let pendingLink: string | null = process.argv.map(appPathOfLink).find((path) => path !== null) ?? null;

function openWindow(): void {
  if (!running || closing) return;
  const page = pendingLink ?? '/';
  pendingLink = null;
  const devServer = process.env.ELECTRON_RENDERER_URL;
  const appUrl = devServer ?? `${running.origin}/`;
  // Under `npm run dev` the page comes from electron-vite's dev server, which forwards /api to the service: the page
  // calls its own origin, as the service allows no other.
  const apiBase = devServer ? new URL(new URL(running.url).pathname, devServer).toString() : running.url;
  createMainWindow({ apiBase, appUrl: new URL(page, appUrl).toString() });
}

/** Opens the page a link of the app's scheme names, in the window (or as the window opens); other links are ignored. */
function openLink(link: string): void {
  const path = appPathOfLink(link);
  if (path) openPage(path);
}

/** Opens one of the app's pages in the window, brought to the front (opening the window when there is none). */
function openPage(path: string): void {
  const [win] = BrowserWindow.getAllWindows();
  if (!win || !running) {
    pendingLink = path;
    if (running) openWindow();
    return;
  }
  void win.loadURL(new URL(path, process.env.ELECTRON_RENDERER_URL ?? running.origin).toString());
  if (win.isMinimized()) win.restore();
  win.focus();
}

// Shared links (referral links under the default public base) open this app at their page.
app.setAsDefaultProtocolClient(APP_LINK_SCHEME);
// macOS hands the link over by event, before or after the app is ready.
app.on('open-url', (event, link) => {
  event.preventDefault();
  openLink(link);
});

// Two instances would contend for the port and the SQLite database in userData.
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  // Windows and Linux start a second instance with the link in its arguments: it quits, and this one opens the page.
  app.on('second-instance', (_event, argv) => {
    const link = argv.find((arg) => appPathOfLink(arg) !== null);
    if (link) return openLink(link);
    const [win] = BrowserWindow.getAllWindows();
    if (win?.isMinimized()) win.restore();
    win?.focus();
  });

  // On macOS the app, and so the API for local bots, stays up with no window, as Mac apps do.
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) openWindow();
  });

  // Hold the quit until the service has closed its server and database.
  app.on('before-quit', (event) => {
    if (readyToQuit) return;
    event.preventDefault();
    closeService()
      .catch((error: unknown) => logger?.error(`Closing the service failed: ${messageOf(error)}`))
      .finally(() => {
        readyToQuit = true;
        app.quit();
      });
  });

  app
    .whenReady()
    .then(async () => {
      service = startService(readOptions());
      running = await service;
      logger?.child({ component: 'http' }).info(`API listening at ${running.url}`);
      const appOrigin = new URL(process.env.ELECTRON_RENDERER_URL ?? running.origin).origin;
      serveAppChannelIpc(running.appChannel, appOrigin, (logger ?? silentLogger()).child({ component: 'appChannel' }));
      serveAppTokenIpc(running.appToken, appOrigin);
      // The page in the window shows none itself (it has the app channel): main's notifications open the page clicked.
      showAlertsOnDesktop(running.alerts, Notification, openPage);
      openWindow();
    })
    .catch((error: unknown) => {
      // A ConfigUsageError's message names the variable or flag at fault and what it may be.
      logger?.fatal(`could not start: ${messageOf(error)}`);
      dialog.showErrorBox('Launchpad Companion could not start', messageOf(error));
      void closeService().finally(() => app.exit(1));
    });
}
