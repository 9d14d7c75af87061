import { ipcMain } from 'electron';
import { APP_TOKEN_IPC } from '../../src-preload/bridge';

/**
 * Gives the window's preload the run's token, with which the app proves to the API that a request on prepared
 * requests comes from the app itself (x-app-token). Only frames loaded from the app's own origin get it; any other
 * frame gets an empty answer, as if there were none.
 */
export function serveAppTokenIpc(token: string, appOrigin: string): void {
  ipcMain.handle(APP_TOKEN_IPC, (event) => {
    const frameUrl = event.senderFrame?.url ?? '';
    return frameUrl.startsWith(`${appOrigin}/`) || frameUrl === appOrigin ? token : '';
  });
}
