import { useDollars } from '../api/dollars';
import { useSettingsStore } from '../store/settingsStore';
import { Amount } from '../ui/Amount';
import { useBnbBalance } from '../wallet/walletBalances';
import { activeAddress, useWallet } from '../wallet/walletStore';

/** The signer's BNB and its dollar value, in the header: the same entry and formatter as every other BNB balance. */
export function HeaderBalance() {
  const address = useWallet(activeAddress);
  const balance = useBnbBalance(address);
  const { usdPerUnit } = useDollars();
  const settings = useSettingsStore((store) => store.state);
  if (balance === null || settings.status !== 'ready') return null;
  return (
    <span className="hidden text-sm font-semibold lg:inline" data-testid="header-balance">
      <Amount
        wei={balance}
        decimals={18}
        symbol="BNB"
        balance
        usdPerUnit={usdPerUnit(settings.settings.contracts.wbnb)}
      />
    </span>
  );
}
