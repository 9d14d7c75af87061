import type { Address } from 'viem';
import type { TokenInfo } from '../api/tokens';
import { formatSharePct } from '../format';
import { Amount } from '../ui/Amount';
import { Badge, type Tone } from '../ui/Badge';
import { Empty } from '../ui/Empty';
import { HashChip } from './HashChip';

export type TokenHolders = NonNullable<TokenInfo['holders']>;
type HolderLabel = TokenHolders['top'][number]['labels'][number];

/** Each label as a chip: its text, its colour, and what it means on hover. */
const LABELS: Record<HolderLabel | 'you', { text: string; tone: Tone; title: string }> = {
  you: { text: 'You', tone: 'up', title: "Your wallet (the signer's address)" },
  creator: { text: 'Creator', tone: 'warn', title: 'The wallet that launched the token' },
  firstBuy: { text: 'First buy', tone: 'primary', title: "Received a share of the launch's first buy" },
  pool: { text: 'Pool', tone: 'neutral', title: "The token's pool: the laid supply not bought yet" },
  dead: { text: 'Burned', tone: 'neutral', title: 'A dead address: tokens sent here are gone for good' },
  factory: { text: 'Factory', tone: 'neutral', title: "The launch factory, which keeps the launch's positions" },
};

/**
 * The token's largest holders from the index, largest first: each address with its labels (creator, pool, burned,
 * first-buy recipient, factory, and "you" for the signer's wallet), its balance with its dollar value, and its share
 * of the supply as a percent and a bar.
 */
export function TokenHoldersTable({
  holders,
  token,
  tokenUsd,
  wallet,
}: {
  holders: TokenHolders;
  token: { symbol: string; decimals: number };
  /** Dollars per whole token at the pool's price, for the value of each balance; null without a price. */
  tokenUsd: number | null;
  /** The signer's address, marked "you"; null without a signer. */
  wallet: Address | null;
}) {
  if (holders.top.length === 0) {
    return (
      <Empty title="No holders yet" testId="holders-empty">
        Balances appear here once the launch's block is indexed.
      </Empty>
    );
  }
  const you = wallet?.toLowerCase() ?? null;
  // The bars are drawn against the largest holder, so the smaller ones stay visible beside a pool holding most.
  const widest = Math.max(...holders.top.map((holder) => holder.sharePct));
  return (
    <div className="overflow-x-auto">
      <table data-testid="holders" className="w-full">
        <thead>
          <tr>
            <th scope="col" className="num w-10">
              #
            </th>
            <th scope="col">Holder</th>
            <th scope="col" className="num">
              {token.symbol}
            </th>
            <th scope="col" className="w-[34%]">
              Share of supply
            </th>
          </tr>
        </thead>
        <tbody>
          {holders.top.map((holder, rank) => {
            const labels: (HolderLabel | 'you')[] = [
              ...(holder.address.toLowerCase() === you ? (['you'] as const) : []),
              ...holder.labels,
            ];
            return (
              <tr
                key={holder.address}
                data-testid="holder-row"
                data-address={holder.address}
                data-labels={labels.join(' ')}
                data-share={holder.sharePct}
                className={labels[0] === 'you' ? 'bg-up-soft/40' : undefined}
              >
                <td className="num text-muted">{rank + 1}</td>
                <td>
                  <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
                    <HashChip hash={holder.address} noun="address" testId="holder-address" />
                    {labels.map((label) => (
                      <Badge
                        key={label}
                        tone={LABELS[label].tone}
                        title={LABELS[label].title}
                        testId={`holder-label-${label}`}
                      >
                        {LABELS[label].text}
                      </Badge>
                    ))}
                  </span>
                </td>
                <td className="num">
                  <Amount
                    wei={holder.balance.wei}
                    decimals={token.decimals}
                    usdPerUnit={tokenUsd}
                    significant={5}
                    compact
                    stacked
                    testId="holder-balance"
                  />
                </td>
                <td>
                  <span className="flex items-center gap-2">
                    <span className="h-1.5 min-w-12 flex-1 overflow-hidden rounded-full bg-raised" aria-hidden="true">
                      <span
                        className="block h-full rounded-full bg-primary"
                        style={{ width: `${widest > 0 ? (holder.sharePct / widest) * 100 : 0}%` }}
                      />
                    </span>
                    <span className="tabular w-16 text-right" data-testid="holder-share">
                      {formatSharePct(holder.sharePct, holder.balance.wei !== '0')}
                    </span>
                  </span>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
