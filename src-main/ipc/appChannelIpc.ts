import { ipcMain } from 'electron';
import { APP_CHANNEL_IPC } from '../../src-preload/bridge';
import { describeCauses } from '../core/serviceError';
import type { Logger } from '../log/createLogger';
import { type AppChannel, AppChannelError } from '../services/appChannel';

/**
 * Serves the app channel to the window over IPC. Only frames loaded from the app's own origin are answered; inputs
 * are validated by the channel itself; a failure travels back as `{ error }` rather than a rejected promise, whose
 * message Electron would wrap.
 */
export function serveAppChannelIpc(channel: AppChannel, appOrigin: string, log: Logger): void {
  ipcMain.handle(APP_CHANNEL_IPC, async (event, operation: unknown, input: unknown) => {
    const frameUrl = event.senderFrame?.url ?? '';
    if (!frameUrl.startsWith(`${appOrigin}/`) && frameUrl !== appOrigin) {
      return { error: { code: 'ORIGIN_NOT_ALLOWED', message: 'Only the app window may use its signers.' } };
    }
    try {
      return { result: await channel.invoke(String(operation), input) };
    } catch (cause) {
      if (cause instanceof AppChannelError) return { error: cause.failure };
      // The whole chain, as the HTTP channel's error handler logs an INTERNAL.
      log.error(`app channel ${String(operation)} failed: ${describeCauses(cause)}`);
      return { error: { code: 'INTERNAL', message: 'The app could not do that; the log has the cause.' } };
    }
  });
}
