import { useId } from 'react';
import type { Address } from 'viem';
import type { TokenInfo } from '../api/tokens';
import { ActionProgressView } from '../components/ActionProgressView';
import { shortAddress } from '../format';
import { Card } from '../ui/Card';
import { TokenQuoteView } from './TokenQuoteView';
import { TradeApprovals } from './TradeApprovals';
import { TradeImpactNotice } from './TradeImpactNotice';
import { TradeNoSigner } from './TradeNoSigner';
import { TradePreviewError } from './TradePreviewError';
import { TradeSideAmount } from './TradeSideAmount';
import { TradeSlippage } from './TradeSlippage';
import { TradeSubmitButton } from './TradeSubmitButton';
import { useTradePanel } from './useTradePanel';

/**
 * Buy or sell the token: the amount with the wallet's balance beside it and quick amounts, a live quote with its
 * dollar values and price-impact tier, the network fee, and the button that builds the trade for the signer's wallet
 * and takes it through the review screen. A referral link's referrer goes into the build. The button says what the
 * wallet lacks before anything is built, and a trade over 15% impact needs its own confirm. A slippage over 5% says
 * what it may cost at this size, and one over 20% is typed twice before the trade goes on.
 */
export function TokenTradePanel({
  token,
  referrer,
  onTraded,
}: {
  token: TokenInfo;
  referrer: Address | null;
  onTraded: () => void;
}) {
  const ids = useId();
  const panel = useTradePanel(token, referrer, onTraded);
  const { side, fresh } = panel;
  return (
    <Card title="Trade" testId="trade-panel">
      <form
        className="flex flex-col gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          panel.submit();
        }}
      >
        <TradeSideAmount
          inputId={`${ids}-amount`}
          token={token}
          side={side}
          exact={panel.exact}
          amount={panel.amount}
          unit={panel.unit}
          short={panel.short}
          balances={panel.balances}
          pairUsd={panel.pairUsd}
          onEdit={panel.edit}
        />
        <TradeSlippage
          inputId={`${ids}-slippage`}
          text={panel.slippageText}
          bps={panel.slippageBps}
          maxBps={panel.maxSlippageBps}
          onChange={panel.setSlippage}
          quote={fresh}
          currencies={{
            token: { decimals: token.decimals, usdPerUnit: panel.tokenUsd },
            pair: { decimals: token.quote.decimals, usdPerUnit: panel.pairUsd },
          }}
          retyped={panel.slippageRetype}
          onRetype={panel.setSlippageRetype}
        />
        <TokenQuoteView
          state={panel.quote}
          token={token}
          tokenUsd={panel.tokenUsd}
          pairUsd={panel.pairUsd}
          networkFee={panel.networkFee}
        />
        {fresh && (
          <TradeImpactNotice
            quote={fresh}
            tier={panel.tier}
            side={side}
            accepted={panel.impactAccepted}
            onAccept={panel.setImpactAccepted}
          />
        )}
        <TradePreviewError error={panel.preview.error} short={panel.short} />
        {fresh && <TradeApprovals steps={panel.preview.steps.map((step) => step.step)} side={side} token={token} />}
        {referrer && (
          <p className="text-xs text-muted" data-testid="trade-referrer" data-address={referrer}>
            Referred by <code title={referrer}>{shortAddress(referrer)}</code>: they get part of the site fee.
          </p>
        )}
        {panel.wallet !== null && (
          <TradeSubmitButton
            side={side}
            symbol={token.symbol}
            short={panel.short}
            tier={panel.tier}
            quote={fresh}
            ready={panel.ready}
            slippageNeedsRetype={panel.slippageNeedsRetype}
          />
        )}
      </form>
      {panel.wallet === null && <TradeNoSigner />}
      {panel.progress && (
        <div className="mt-3">
          <ActionProgressView progress={panel.progress} link={{ to: '/activity', label: 'See it in Activity' }} />
        </div>
      )}
    </Card>
  );
}
