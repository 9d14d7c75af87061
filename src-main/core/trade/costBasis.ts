/** A wallet's trade of one token as the index keeps it: the router's Trade event, or a launch's first buy. */
export interface CostTrade {
  isBuy: boolean;
  /** Tokens received (buy) or paid (sell), in wei. */
  tokenAmount: bigint;
  /** Pair wei paid (buy) or given by the pool (sell), the site fee included either way. */
  pairAmount: bigint;
  /** The site fee, in pair wei: on a sell it comes out of `pairAmount`. */
  fee: bigint;
}

/** A holding's cost and profit from its trades, in pair wei; every figure exact, rounded down where divided. */
export interface CostBasis {
  /** Tokens the wallet holds now (the chain's balance). */
  balance: bigint;
  /** Tokens the trades alone leave: bought less sold, never below zero. */
  traded: bigint;
  /**
   * `balance - traded`: above zero, tokens that came by another way (a transfer in, a share of someone's first buy),
   * held at no cost; below zero, tokens that left by another way (a transfer out), which took their share of the
   * cost with them and realized nothing.
   */
  untracked: bigint;
  /** What the tokens held now cost, pair wei. */
  cost: bigint;
  /** Profit taken by sales: what each sale got (after the site fee) less the cost of what it sold. */
  realized: bigint;
  buys: number;
  sells: number;
  /** Pair wei paid by the buys (fees included) and received from the sales (after fees). */
  spent: bigint;
  received: bigint;
}

/**
 * A holding's average-cost basis from its trades in chain order, reconciled with the balance the chain holds now.
 *
 * Each buy adds its tokens and what it paid (site fee included) to the holding's cost. Each sale takes out the cost of
 * what it sold at the holding's average (cost × sold ÷ held, rounded down; the remainder stays with what is left, so
 * no wei of cost is lost or made), and realizes what it got after the site fee less that cost. Tokens sold beyond what
 * the trades left came by another way and carry no cost: their whole proceeds are profit. Finally the holding meets
 * the balance: tokens beyond the trades' count are held at no cost; tokens missing from it left without a sale here,
 * and the cost leaves with them in proportion (cost × balance ÷ traded, rounded down), realizing nothing.
 *
 * @example costBasis([{ isBuy: true, tokenAmount: 100n, pairAmount: 10n, fee: 0n }], 100n).cost // 10n
 */
export function costBasis(trades: readonly CostTrade[], balance: bigint): CostBasis {
  let held = 0n;
  let cost = 0n;
  let realized = 0n;
  let spent = 0n;
  let received = 0n;
  let buys = 0;
  let sells = 0;
  for (const trade of trades) {
    if (trade.isBuy) {
      held += trade.tokenAmount;
      cost += trade.pairAmount;
      spent += trade.pairAmount;
      buys++;
      continue;
    }
    const got = trade.pairAmount - trade.fee;
    const fromHeld = trade.tokenAmount < held ? trade.tokenAmount : held;
    const costOut = held === 0n ? 0n : (cost * fromHeld) / held;
    cost -= costOut;
    held -= fromHeld;
    realized += got - costOut;
    received += got;
    sells++;
  }
  const kept = balance < held ? (held === 0n ? 0n : (cost * balance) / held) : cost;
  return {
    balance,
    traded: held,
    untracked: balance - held,
    cost: kept,
    realized,
    buys,
    sells,
    spent,
    received,
  };
}
