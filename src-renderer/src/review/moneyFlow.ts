import type { Address } from 'viem';
import type { TxSummary } from '../../../src-shared/inspect/decodeCall';
import { currencyAt } from '../../../src-shared/inspect/humanUnits';
import { addressLabel, type KnownContracts, type TokenInfos } from '../../../src-shared/inspect/knownContracts';

/** An amount of one currency, with what a whole unit is worth in dollars when the app knows. */
export interface FlowAmount {
  wei: bigint;
  decimals: number;
  symbol: string;
  usdPerUnit: number | null;
}

/**
 * What a transaction does to the person's money, read from the decoded call (never from a build's text): what they
 * pay (exact, or at most), what they get (exact, or at least), the most the network may charge, and the contract
 * called. An approval pays and gets nothing; its headline says what it allows.
 */
export interface MoneyFlow {
  pay: { label: 'You pay' | 'You pay at most'; amount: FlowAmount } | null;
  get: { label: 'You get' | 'You get at least'; amount: FlowAmount } | null;
  /** gas × max fee per gas of the filled transaction, in BNB wei; null until main has filled it. */
  networkFeeWei: bigint | null;
  /** Dollars per BNB, for the network fee's dollar value. */
  usdPerBnb: number | null;
  to: { address: Address; name: string | null };
}

/** LaunchToken mints with 18 decimals, always. */
const TOKEN_DECIMALS = 18;

/**
 * @param usdPerUnit dollars per whole unit of a currency by address (BNB for WBNB), or null when it has no price.
 */
export function moneyFlowOf(
  summary: TxSummary,
  known: KnownContracts,
  tokens: TokenInfos,
  usdPerUnit: (address: Address) => number | null,
  networkFeeWei: bigint | null,
): MoneyFlow {
  const amountOf = (address: Address, wei: bigint, fallbackSymbol: string): FlowAmount => {
    const currency = currencyAt(address, known, tokens);
    return {
      wei,
      decimals: currency?.decimals ?? TOKEN_DECIMALS,
      symbol: currency?.symbol ?? fallbackSymbol,
      usdPerUnit: usdPerUnit(address),
    };
  };
  const base = {
    networkFeeWei,
    usdPerBnb: usdPerUnit(known.wbnb),
    to: { address: summary.to, name: addressLabel(summary.to, known, tokens) },
  };
  const { call } = summary;
  if (call.kind === 'trade') {
    const { token, pair, amount, limit } = call.params;
    const tokenAmount = (wei: bigint) => amountOf(token, wei, 'tokens');
    const pairAmount = (wei: bigint) => amountOf(pair, wei, 'pair');
    switch (call.function) {
      case 'buyExactIn':
        return {
          ...base,
          pay: { label: 'You pay', amount: pairAmount(amount) },
          get: { label: 'You get at least', amount: tokenAmount(limit) },
        };
      case 'buyExactOut':
        return {
          ...base,
          pay: { label: 'You pay at most', amount: pairAmount(limit) },
          get: { label: 'You get', amount: tokenAmount(amount) },
        };
      case 'sellExactIn':
        return {
          ...base,
          pay: { label: 'You pay', amount: tokenAmount(amount) },
          get: { label: 'You get at least', amount: pairAmount(limit) },
        };
      case 'sellExactOut':
        return {
          ...base,
          pay: { label: 'You pay at most', amount: tokenAmount(limit) },
          get: { label: 'You get', amount: pairAmount(amount) },
        };
    }
  }
  if (call.kind === 'launch') {
    const { pair, firstBuy, minTokens, symbol } = call.params;
    return {
      ...base,
      pay: firstBuy > 0n ? { label: 'You pay', amount: amountOf(pair, firstBuy, 'pair') } : null,
      get:
        firstBuy > 0n
          ? {
              label: 'You get at least',
              amount: { wei: minTokens, decimals: TOKEN_DECIMALS, symbol, usdPerUnit: null },
            }
          : null,
    };
  }
  const value = BigInt(summary.value.wei);
  return {
    ...base,
    pay: value > 0n ? { label: 'You pay', amount: amountOf(known.wbnb, value, 'BNB') } : null,
    get: null,
  };
}
