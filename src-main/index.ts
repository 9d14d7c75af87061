import { app, BrowserWindow, dialog } from 'electron';
import { type RunningService, type ServiceOptions, startService } from './startService';
import { createMainWindow } from './windows/createMainWindow';

const NETWORKS = ['devnet', 'testnet', 'mainnet'] as const;

function readOptions(): ServiceOptions {
  const network = process.env.NETWORK ?? 'devnet';
  if (!NETWORKS.some((known) => known === network)) {
    throw new Error(`NETWORK must be one of ${NETWORKS.join(', ')}; got "${network}".`);
  }
  const port = Number(process.env.PORT ?? 8787);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT must be an integer from 0 to 65535; got "${process.env.PORT}".`);
  }
  return {
    port,
    dataDir: app.getPath('userData'),
    network: network as ServiceOptions['network'],
    rpcUrl: process.env.RPC_URL || undefined,
    log: (line) => console.log(line),
  };
}

let service: RunningService | undefined;
let closing: Promise<void> | undefined;
let readyToQuit = false;

function closeService(): Promise<void> {
  closing ??= service?.close() ?? Promise.resolve();
  return closing;
}

function openWindow(): void {
  if (!service) return;
  createMainWindow({ apiBase: service.url, rendererUrl: process.env.ELECTRON_RENDERER_URL });
}

// Two instances would contend for the port and the SQLite database in userData.
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    const [win] = BrowserWindow.getAllWindows();
    if (win?.isMinimized()) win.restore();
    win?.focus();
  });

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
      service = await startService(readOptions());
      console.log(`API listening at ${service.url}`);
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
