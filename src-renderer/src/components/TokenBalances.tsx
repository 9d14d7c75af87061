import type { Balances } from '../api/tokens';
import { displayUnits } from '../format';

/** What the signer's wallet holds of the token and its pair, and its BNB for gas. */
export function TokenBalances({ balances }: { balances: Balances }) {
  const { token, pair } = balances;
  return (
    <p className="tk-balances" data-testid="balances">
      You hold{' '}
      <strong data-testid="balance-token" data-wei={token.wei}>
        {displayUnits(token.wei, token.decimals)} {token.symbol}
      </strong>{' '}
      and{' '}
      <strong data-testid="balance-pair" data-wei={pair.wei}>
        {displayUnits(pair.wei, pair.decimals)} {pair.symbol}
      </strong>
      {!pair.native && (
        <>
          {' '}
          (
          <span data-testid="balance-bnb" data-wei={balances.bnbWei}>
            {displayUnits(balances.bnbWei)} BNB
          </span>{' '}
          for gas)
        </>
      )}
      .
    </p>
  );
}
