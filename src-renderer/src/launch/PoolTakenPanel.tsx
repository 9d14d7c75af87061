import { Ban, FileCheck, Fuel, RotateCw } from 'lucide-react';
import type { ReactNode } from 'react';
import { HashChip } from '../components/HashChip';
import { shortAddress } from '../format';
import { Amount } from '../ui/Amount';
import { Button } from '../ui/Button';
import type { RevertedTx } from '../wallet/revertedOnChain';

function Fact({ icon, children, testId }: { icon: ReactNode; children: ReactNode; testId: string }) {
  return (
    <li className="flex items-start gap-2" data-testid={testId}>
      <span className="mt-0.5 shrink-0 text-muted">{icon}</span>
      <span className="min-w-0">{children}</span>
    </li>
  );
}

/**
 * A launch refused on chain because someone created and priced its pool first (PoolOccupied), in plain words: what
 * happened, what it cost (the network fee only), that the form is kept; and one button that builds the same launch
 * again, at a new token address, into the usual review. Says what explainRevert says for PoolOccupied.
 */
export function PoolTakenPanel({
  taken,
  token,
  hash,
  bnbUsd,
  onLaunchAgain,
  disabled,
}: {
  taken: RevertedTx;
  /** The address whose pool was taken: the launch as it was built. */
  token: string | null;
  /** The refused launch's transaction. */
  hash: string | null;
  bnbUsd: number | null;
  onLaunchAgain: () => void;
  disabled: boolean;
}) {
  return (
    <section
      className="flex flex-col gap-3 rounded-lg border border-down/40 bg-down-soft/40 p-3.5 text-sm"
      role="alert"
      data-testid="launch-pool-taken"
      data-revert={taken.name}
    >
      <h3 className="text-[0.9375rem] leading-snug font-semibold text-down">Someone priced this token's pool first</h3>
      <p className="leading-relaxed">
        They saw your launch waiting to be mined, and created and priced its PancakeSwap pool before it, with their own
        liquidity in the way. The factory refused that pool, so:
      </p>
      <ul className="flex flex-col gap-2">
        <Fact icon={<Ban size={15} aria-hidden="true" />} testId="launch-pool-taken-nothing">
          <strong className="font-semibold">Nothing was launched:</strong> no token was made and no first buy was spent.
        </Fact>
        <Fact icon={<Fuel size={15} aria-hidden="true" />} testId="launch-pool-taken-fee">
          <strong className="font-semibold">Only the network fee was spent</strong>
          {taken.feeWei === null ? (
            '.'
          ) : (
            <>
              {': '}
              <Amount wei={taken.feeWei} decimals={18} symbol="BNB" usdPerUnit={bnbUsd} significant={4} />.
            </>
          )}
        </Fact>
        <Fact icon={<FileCheck size={15} aria-hidden="true" />} testId="launch-pool-taken-kept">
          <strong className="font-semibold">Your form is kept</strong>, logo and all: nothing to type again.
        </Fact>
      </ul>
      <Button
        variant="primary"
        className="w-full"
        icon={<RotateCw size={15} aria-hidden="true" />}
        onClick={onLaunchAgain}
        disabled={disabled}
        testId="launch-again"
      >
        Launch again at a new address
      </Button>
      <p className="text-xs leading-relaxed text-muted">
        A new build picks another token address; you review and sign it as before.
      </p>
      {(token || hash) && (
        <dl className="grid grid-cols-[auto_minmax(0,1fr)] items-center gap-x-3 gap-y-1 border-t border-down/20 pt-2.5 text-xs">
          {token && (
            <>
              <dt className="text-muted">Address taken</dt>
              <dd>
                <code title={token} data-testid="launch-pool-taken-token" data-address={token}>
                  {shortAddress(token)}
                </code>
              </dd>
            </>
          )}
          {hash && (
            <>
              <dt className="text-muted">Refused launch</dt>
              <dd>
                <HashChip hash={hash} testId="launch-pool-taken-hash" />
              </dd>
            </>
          )}
        </dl>
      )}
    </section>
  );
}
