import { useDollars } from '../api/dollars';
import type { Balances } from '../api/tokens';
import { useSettingsStore } from '../store/settingsStore';
import { Amount } from '../ui/Amount';
import { Card } from '../ui/Card';
import { useTokenUsd } from './useTokenUsd';

/**
 * What the signer's wallet holds of the token and its pair, and its BNB for gas, each with its dollar value: the
 * balances the trade panel reads too (useWalletBalances), written by the one balance formatter.
 */
export function TokenBalances({ balances }: { balances: Balances }) {
  const { token, pair } = balances;
  const { usdPerUnit } = useDollars();
  const { tokenUsd } = useTokenUsd(token.address, pair);
  const settings = useSettingsStore((s) => s.state);
  const wbnb = settings.status === 'ready' ? settings.settings.contracts.wbnb : null;
  const rows = [
    { label: token.symbol, testId: 'balance-token', wei: token.wei, decimals: token.decimals, usd: tokenUsd },
    {
      label: pair.symbol,
      testId: 'balance-pair',
      wei: pair.wei,
      decimals: pair.decimals,
      usd: usdPerUnit(pair.address),
    },
    ...(pair.native
      ? []
      : [
          {
            label: 'BNB for gas',
            testId: 'balance-bnb',
            wei: balances.bnbWei,
            decimals: 18,
            usd: wbnb ? usdPerUnit(wbnb) : null,
          },
        ]),
  ];
  return (
    <Card title="Your balances" testId="balances">
      <dl className="flex flex-col gap-1.5 text-sm">
        {rows.map((row) => (
          <div key={row.testId} className="flex items-baseline justify-between gap-3">
            <dt className="text-muted">{row.label}</dt>
            <dd>
              <Amount testId={row.testId} wei={row.wei} decimals={row.decimals} usdPerUnit={row.usd} balance />
            </dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}
