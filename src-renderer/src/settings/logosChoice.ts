import type { ThirdPartyFetchesChoice } from '../../../src-shared/appChannelTypes';
import { invoke } from '../wallet/appChannel';
import { useWallet } from '../wallet/walletStore';

/** What fetching another person's logo tells them, said the same way wherever the person is asked. */
export const WHAT_A_FETCH_REVEALS =
  "Each fetch tells the launcher's server your IP address and when you looked, so whoever launched a token can " +
  'see that this computer viewed it.';

/**
 * Sends the person's choice about other people's logos to main, which applies it at once and keeps it for the next
 * starts; then reads the app's info again, so every screen shows the choice in force.
 *
 * @example await chooseLogos(true) // { thirdPartyFetches: true, keptIn: '/home/me/.config/…/app-settings.json' }
 */
export async function chooseLogos(on: boolean): Promise<ThirdPartyFetchesChoice> {
  const choice = await invoke<ThirdPartyFetchesChoice>('settings.thirdPartyFetches', { on });
  await useWallet.getState().refresh();
  return choice;
}
