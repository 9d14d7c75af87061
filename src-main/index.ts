import { join } from 'node:path';
import { app, BrowserWindow, dialog, safeStorage } from 'electron';
import { NETWORK_NAMES, type NetworkName } from './chain/networks';
import { APP_LINK_SCHEME, appPathOfLink } from './core/appPages';
import { serveAppChannelIpc } from './ipc/appChannelIpc';
import { serveAppTokenIpc } from './ipc/appTokenIpc';
import { rpcTimeoutMsOf } from './serveOptions';
import { keychainCipher } from './signer/localKey/keyCipher';
import { type RunningService, type ServiceOptions, startService } from './startService';
import { readAppSettings } from './store/appSettingsFile';
import { createMainWindow } from './windows/createMainWindow';

function readOptions(): ServiceOptions {
  // Settings saved by the Settings screen apply at this start; environment variables still win over them.
  const settingsFile = join(app.getPath('userData'), 'app-settings.json');
  const { settings: saved, problem } = readAppSettings(settingsFile);
  if (problem) console.error(problem);
  // FORK_URL makes this start a rehearsal on a fork of the chain behind it, as --fork does for the headless server.
  const network = (process.env.FORK_URL ? 'fork' : (process.env.NETWORK ?? saved.network ?? 'devnet')) as NetworkName;
  if (!NETWORK_NAMES.includes(network)) {
    throw new Error(`NETWORK must be one of ${NETWORK_NAMES.join(', ')}; got "${network}".`);
  }
  const port = Number(process.env.PORT ?? 8787);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT must be an integer from 0 to 65535; got "${process.env.PORT}".`);
  }
  // On a rehearsal (network fork) the RPC is the chain it forks, and the fork block resumes the last one unless saved.
  const rpcUrl =
    (network === 'fork' ? process.env.FORK_URL : undefined) || process.env.RPC_URL || saved.rpcUrl || undefined;
  const forkBlockText = process.env.FORK_BLOCK ?? (saved.forkBlock != null ? String(saved.forkBlock) : undefined);
  if (network === 'fork' && forkBlockText !== undefined && !/^(\d{1,12}|latest)$/.test(forkBlockText)) {
    throw new Error(`FORK_BLOCK must be a block number or latest; got "${forkBlockText}".`);
  }
  const forkBlock =
    network !== 'fork' || forkBlockText === undefined
      ? undefined
      : forkBlockText === 'latest'
        ? ('latest' as const)
        : BigInt(forkBlockText);
  const rpcTimeoutMs = rpcTimeoutMsOf(process.env.RPC_TIMEOUT);
  return {
    port,
    // One folder per network, as in headless mode, so devnet and testnet data never share a database.
    dataDir: saved.dataDir ? join(saved.dataDir, network) : join(app.getPath('userData'), network),
    // The window loads the UI from the service itself: page and API share one origin, so no CORS is needed.
    webRoot: join(app.getAppPath(), 'out/renderer'),
    network,
    ...(rpcUrl ? { rpcUrl } : {}),
    ...(forkBlock !== undefined ? { forkBlock } : {}),
    ...(rpcTimeoutMs !== undefined ? { rpcTimeoutMs } : {}),
    ...(saved.rateLimits === false ? { rateLimits: false as const } : {}),
    ...(saved.thirdPartyFetches === false ? { thirdPartyFetches: false } : {}),
    ...(saved.publicLinkBase ? { publicLinkBase: saved.publicLinkBase } : {}),
    settingsFile,
    // The local key is sealed by the OS keychain in the desktop app: no passphrase to type at each start.
    keyCipher: keychainCipher(safeStorage),
    log: (line) => console.log(line),
  };
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
  const appUrl = process.env.ELECTRON_RENDERER_URL ?? `${running.origin}/`;
  createMainWindow({ apiBase: running.url, appUrl: new URL(page, appUrl).toString() });
}

/** Opens the page a link of the app's scheme names, in the window (or as the window opens); other links are ignored. */
function openLink(link: string): void {
  const path = appPathOfLink(link);
  if (!path) return;
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
      .catch((error: unknown) => console.error('Closing the service failed:', error))
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
      console.log(`API listening at ${running.url}`);
      const appOrigin = new URL(process.env.ELECTRON_RENDERER_URL ?? running.origin).origin;
      serveAppChannelIpc(running.appChannel, appOrigin, (line) => console.error(line));
      serveAppTokenIpc(running.appToken, appOrigin);
      openWindow();
    })
    .catch((error: unknown) => {
      dialog.showErrorBox(
        'Launchpad Companion could not start',
        error instanceof Error ? error.message : String(error),
      );
      void closeService().finally(() => app.exit(1));
    });
}
