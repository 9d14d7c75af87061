/**
 * The router's fee arithmetic, the same to the wei as TradeRouter.sol, so quotes and builds show what the chain will
 * take. Rounding always favours the service and never costs the trader more than one wei against the exact rate.
 */

export const BPS = 10_000n;

/**
 * The site fee on a gross pair amount: ceil(gross · bps / 10,000).
 *
 * @example siteFeeOn(101n, 100) // 2n
 */
export function siteFeeOn(gross: bigint, bps: number): bigint {
  return (gross * BigInt(bps) + BPS - 1n) / BPS;
}

/**
 * The gross pair amount whose net after the site fee is `net`: ceil(net · 10,000 / (10,000 − bps)).
 *
 * @example grossForNet(1n, 100) // 2n
 */
export function grossForNet(net: bigint, bps: number): bigint {
  const rest = BPS - BigInt(bps);
  return (net * BPS + rest - 1n) / rest;
}

/** The referrer's instant cut of a gross pair amount, paid out of the site fee: floor(gross · bps / 10,000). */
export function referrerCutOf(gross: bigint, bps: number, fee: bigint): bigint {
  const cut = (gross * BigInt(bps)) / BPS;
  return cut > fee ? fee : cut;
}

/** The floor written into an exact-in trade: the quoted amount less the slippage tolerance, rounded down. */
export function minReceiveFor(amount: bigint, slippageBps: number): bigint {
  return (amount * (BPS - BigInt(slippageBps))) / BPS;
}

/** The ceiling written into an exact-out trade: the quoted amount plus the slippage tolerance, rounded up. */
export function maxPayFor(amount: bigint, slippageBps: number): bigint {
  return (amount * (BPS + BigInt(slippageBps)) + BPS - 1n) / BPS;
}
