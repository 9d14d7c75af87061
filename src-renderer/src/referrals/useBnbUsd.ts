import { useDollars } from '../api/dollars';
import { useSettingsStore } from '../store/settingsStore';

/** Dollars per BNB (by wrapped BNB, the pair paid natively), for BNB amounts of the referral vault; null without it. */
export function useBnbUsd(): number | null {
  const { usdPerUnit } = useDollars();
  const settings = useSettingsStore((store) => store.state);
  const bnb = settings.status === 'ready' ? settings.settings.pairs.find((pair) => pair.native) : undefined;
  return bnb ? usdPerUnit(bnb.address) : null;
}
