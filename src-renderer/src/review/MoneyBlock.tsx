import { formatBps } from '../../../src-shared/inspect/humanUnits';
import { shortAddress } from '../format';
import { Amount } from '../ui/Amount';
import type { FlowAmount, MoneyFlow } from './moneyFlow';

const ROW = 'flex items-baseline justify-between gap-4 px-4 py-2.5';

/**
 * What the call pays in BNB, in red under "You pay" when the transaction sends another amount (a tampered or mistaken
 * value): "You pay" is what leaves the wallet, this is what the call says.
 */
function ValueMismatch({ sent, callPays }: { sent: FlowAmount; callPays: FlowAmount }) {
  return (
    <div className={ROW} data-testid="review-value-mismatch" data-sent={sent.wei.toString()}>
      <dt className="text-sm font-semibold text-down">The call pays</dt>
      <dd className="text-right text-sm text-down">
        {callPays.wei === 0n ? 'no BNB' : <Amount {...callPays} />}
        <span className="block text-xs">
          yet the transaction sends <Amount {...sent} usdPerUnit={null} />
        </span>
      </dd>
    </div>
  );
}

/** Each wallet a launch's first buy goes to, its share and the fewest tokens it gets: the signer's own named "You". */
function FirstBuyShares({ flow }: { flow: MoneyFlow }) {
  return (
    <div className={ROW} data-testid="review-first-buy-to">
      <dt className="text-sm text-muted">First buy goes to</dt>
      <dd className="flex flex-col items-end gap-1 text-right text-sm">
        {flow.firstBuyTo.map((share) => (
          <span
            key={share.wallet}
            data-testid="review-first-buy-share"
            data-wallet={share.wallet}
            data-bps={share.bps}
            data-signer={String(share.isSigner)}
          >
            {share.isSigner ? <strong>You</strong> : <code title={share.wallet}>{shortAddress(share.wallet)}</code>}
            {share.name && <span className="text-muted"> ({share.name})</span>}
            <span className="text-muted"> · {formatBps(share.bps)} · at least </span>
            <Amount {...share.atLeast} round="down" />
          </span>
        ))}
      </dd>
    </div>
  );
}

/**
 * You pay / You get / Network fee / To: what the transaction does to the person's money, in whole units and dollars,
 * from the decoded call and the BNB it really sends. A value that is not what the call pays is said in red; a split
 * first buy lists who gets what, and "You get" is only the signer's part.
 */
export function MoneyBlock({ flow }: { flow: MoneyFlow }) {
  const everyShareElsewhere = flow.firstBuyTo.length > 0 && flow.get === null;
  return (
    <dl className="divide-y divide-line rounded-xl border border-line bg-raised/60" data-testid="review-flow">
      {flow.pay && (
        <div className={ROW} data-testid="review-pay" data-wei={flow.pay.amount.wei.toString()}>
          <dt className="text-sm text-muted">{flow.pay.label}</dt>
          <dd className="text-right text-base font-semibold">
            <Amount {...flow.pay.amount} round={flow.pay.label === 'You pay' ? 'nearest' : 'up'} stacked />
            {flow.payParts.length > 0 && (
              <span className="block text-xs font-normal text-muted" data-testid="review-pay-parts">
                {flow.payParts.map((part, index) => (
                  <span key={part.what}>
                    {index > 0 && ' + '}
                    {part.what} <Amount {...part.amount} usdPerUnit={null} />
                  </span>
                ))}
              </span>
            )}
          </dd>
        </div>
      )}
      {flow.valueMismatch && <ValueMismatch {...flow.valueMismatch} />}
      {flow.get && (
        <div className={ROW} data-testid="review-get" data-wei={flow.get.amount.wei.toString()}>
          <dt className="text-sm text-muted">{flow.get.label}</dt>
          <dd className="text-right text-base font-semibold text-up">
            <Amount {...flow.get.amount} round={flow.get.label === 'You get' ? 'nearest' : 'down'} stacked />
          </dd>
        </div>
      )}
      {everyShareElsewhere && (
        <div className={ROW} data-testid="review-get-none">
          <dt className="text-sm text-muted">You get</dt>
          <dd className="text-right text-sm font-semibold text-warn">none of the first buy's tokens</dd>
        </div>
      )}
      {flow.firstBuyTo.length > 0 && <FirstBuyShares flow={flow} />}
      <div className={ROW} data-testid="review-network-fee">
        <dt className="text-sm text-muted">Network fee, at most</dt>
        <dd className="text-right text-sm">
          {flow.networkFeeWei === null ? (
            <span className="text-muted">set by your wallet</span>
          ) : (
            <Amount
              wei={flow.networkFeeWei}
              decimals={18}
              symbol="BNB"
              usdPerUnit={flow.usdPerBnb}
              significant={4}
              round="up"
            />
          )}
        </dd>
      </div>
      <div className={ROW} data-testid="review-to">
        <dt className="text-sm text-muted">To contract</dt>
        <dd className="text-right text-sm">
          {flow.to.name && <span className="mr-2 font-semibold">{flow.to.name}</span>}
          <code className="text-muted" title={flow.to.address}>
            {shortAddress(flow.to.address)}
          </code>
        </dd>
      </div>
    </dl>
  );
}
