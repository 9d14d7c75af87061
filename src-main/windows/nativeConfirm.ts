import type { BrowserWindow as BrowserWindowType, Dialog } from 'electron';
import type { AskNatively } from '../services/signingConfirmer';

/**
 * Main's own question window, modal to the app's window: the page can neither see nor press its buttons, so what the
 * person answers there is theirs. Cancel is the default and what Escape or closing the window means.
 */
export function electronAsk(dialog: Dialog, windows: typeof BrowserWindowType): AskNatively {
  return async ({ title, message, detail }) => {
    const options = {
      type: 'warning' as const,
      title,
      message,
      detail,
      buttons: ['Cancel', 'Sign anyway'],
      defaultId: 0,
      cancelId: 0,
      noLink: true,
    };
    const parent = windows.getFocusedWindow() ?? windows.getAllWindows()[0];
    const { response } = parent ? await dialog.showMessageBox(parent, options) : await dialog.showMessageBox(options);
    return response === 1;
  };
}
