import { useState } from 'react';
import type { Address } from 'viem';
import { formatLocalTime } from '../../../src-shared/format/times';
import { ActionProgressView } from '../components/ActionProgressView';
import { loadableLogo } from '../components/loadableLogo';
import { shortAddress } from '../format';
import { Link } from '../router/Link';
import { Amount, Usd } from '../ui/Amount';
import { Badge } from '../ui/Badge';
import { Button } from '../ui/Button';
import { Card } from '../ui/Card';
import { TokenLogo } from '../ui/TokenLogo';
import { type ActionProgress, sendBuild } from '../wallet/sendBuild';
import { buildCollect, type CreatorAmount, type CreatorLaunch } from './creatorApi';

/** An amount of the answer with its dollars under it (none without a price). */
function Figure({ value, decimals, testId }: { value: CreatorAmount; decimals: number; testId: string }) {
  return (
    <span className="inline-flex flex-col leading-tight" data-testid={testId} data-wei={value.wei}>
      <Amount wei={value.wei} decimals={decimals} symbol={value.symbol} significant={5} />
      {value.usd !== null && <Usd value={Number(value.usd)} className="text-xs text-muted" />}
    </span>
  );
}

type LaunchToken = CreatorLaunch['token'];

/** One figure of the card: a label, the pair side with dollars, and the token side under it. */
function Earned({
  token,
  label,
  testId,
  pair,
  tokens,
  hint,
}: {
  token: LaunchToken;
  label: string;
  testId: string;
  pair?: CreatorAmount;
  tokens?: CreatorAmount;
  hint?: string;
}) {
  return (
    <div className="flex min-w-0 flex-col gap-1" data-testid={testId}>
      <span className="text-2xs font-semibold tracking-wide text-muted uppercase" title={hint}>
        {label}
      </span>
      {pair && <Figure value={pair} decimals={token.pair.decimals} testId={`${testId}-pair`} />}
      {tokens && <Figure value={tokens} decimals={token.decimals} testId={`${testId}-tokens`} />}
    </div>
  );
}

/**
 * A launch the signer created: what its locked liquidity earned (collected and waiting), the royalty paid, the tokens
 * burned and the buy-back pending, its first-buy recipients' holdings, and Collect, which goes through the review and
 * the signer like a trade. `onCollected` is told once the collect is mined, to read the figures again.
 */
export function LaunchEarnings({
  launch,
  wallet,
  onCollected,
}: {
  launch: CreatorLaunch;
  wallet: Address;
  onCollected: (token: Address) => void;
}) {
  const [progress, setProgress] = useState<ActionProgress | null>(null);
  const { token, fees, royalty } = launch;
  const running = progress !== null && !['done', 'rejected', 'failed'].includes(progress.stage);
  const toYou = royalty.recipient.toLowerCase() === wallet.toLowerCase();
  // A collect does something while fees wait, or while a buy-back waits for the price guard to let it buy.
  const waiting =
    BigInt(fees.pair.uncollected.wei) > 0n ||
    BigInt(fees.token.uncollected.wei) > 0n ||
    BigInt(launch.buybackPending.wei) > 0n;
  const burnPct = royalty.burnBps / 100;

  async function collect() {
    const result = await sendBuild({
      title: `Collect the trading fees of ${token.symbol}`,
      request: { kind: 'collect', token: token.address as Address },
      build: (signer) => buildCollect(signer, token.address as Address),
      onProgress: setProgress,
    });
    if (result.progress.stage === 'done') onCollected(token.address as Address);
  }

  return (
    <Card
      testId="creator-launch"
      data-token={token.address}
      title={
        <span className="flex min-w-0 items-center gap-3">
          <TokenLogo src={loadableLogo(token.image)} symbol={token.symbol} address={token.address} />
          <span className="flex min-w-0 flex-col">
            <Link to={`/token/${token.address}`} className="truncate font-semibold">
              {token.name} <span className="text-muted">{token.symbol}</span>
            </Link>
            <span className="text-xs font-normal text-muted">
              Launched {formatLocalTime(launch.launchedAt)} · paired with {token.pair.symbol}
            </span>
          </span>
        </span>
      }
      actions={
        <Button
          variant="primary"
          disabled={running || !waiting}
          title={waiting ? undefined : 'Nothing waits to be collected: trades of the token earn fees'}
          onClick={() => void collect()}
          testId="creator-collect"
        >
          Collect
        </Button>
      }
    >
      <div className="grid grid-cols-2 gap-x-6 gap-y-4 lg:grid-cols-5">
        <Earned
          token={token}
          label="Fees earned"
          testId="creator-fees-total"
          pair={fees.pair.total}
          tokens={fees.token.total}
          hint="Everything the launch's locked liquidity earned: collected plus waiting"
        />
        <Earned
          token={token}
          label="Waiting to collect"
          testId="creator-fees-uncollected"
          pair={fees.pair.uncollected}
          tokens={fees.token.uncollected}
        />
        <Earned
          token={token}
          label={toYou ? 'Royalty paid to you' : `Royalty paid to ${shortAddress(royalty.recipient)}`}
          testId="creator-royalty"
          pair={launch.royaltyPaid.pair}
          tokens={launch.royaltyPaid.tokens}
        />
        <Earned
          token={token}
          label="Bought back and burned"
          testId="creator-burned"
          tokens={launch.burned}
          hint={`${burnPct}% of the fees buys the token back and burns it`}
        />
        <Earned
          token={token}
          label="Buy-back pending"
          testId="creator-pending"
          pair={launch.buybackPending}
          hint="What the price guard left for a later collect to spend"
        />
      </div>
      <p className="mt-3 text-xs text-muted">
        {burnPct > 0
          ? `${burnPct}% of every collect buys ${token.symbol} back and burns it; the rest`
          : 'Every collect'}{' '}
        goes to {toYou ? 'you' : royalty.recipient}. Anyone may send a collect; the sender pays only the gas.
      </p>
      {launch.firstBuy.length > 0 && (
        <table className="mt-3 w-full" data-testid="creator-first-buy">
          <thead>
            <tr>
              <th scope="col">First buy went to</th>
              <th scope="col" className="num">
                Received
              </th>
              <th scope="col" className="num">
                Holds now
              </th>
            </tr>
          </thead>
          <tbody>
            {launch.firstBuy.map((holder) => (
              <tr key={holder.wallet} data-testid="creator-holder" data-wallet={holder.wallet}>
                <td>
                  <span className="tabular" title={holder.wallet}>
                    {shortAddress(holder.wallet)}
                  </span>
                  {holder.wallet.toLowerCase() === wallet.toLowerCase() && (
                    <Badge tone="primary" className="ml-2">
                      you
                    </Badge>
                  )}
                </td>
                <td className="num">
                  <Figure value={holder.received} decimals={token.decimals} testId="creator-holder-received" />
                </td>
                <td className="num">
                  <Figure value={holder.balance} decimals={token.decimals} testId="creator-holder-balance" />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {progress && (
        <div className="mt-3">
          <ActionProgressView progress={progress} />
        </div>
      )}
    </Card>
  );
}
