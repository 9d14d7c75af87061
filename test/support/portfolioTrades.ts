import { type Address, http, type TransactionReceipt } from 'viem';
import { testAccounts } from '../../src-main/chain/devnet/testAccounts';
import { tradesIn } from './chainPrices';
import { launcher } from './launcher';
import type { LaunchedToken, TradingFixture } from './tradingFixture';

/*
 * What the portfolio tests (over HTTP and in the browser) start from and check against: one more BNB-pair launch
 * beside the fixture's, and a wallet's position in a token worked out by average cost from its receipts' Trade
 * events, not by the service's code.
 */

/** A further BNB-pair token launched by test account `creator`, indexed before this returns. */
export async function launchBnbToken(f: TradingFixture, creator: number, saltSeed: string): Promise<LaunchedToken> {
  const { factory, wbnb } = f.contracts as Record<string, Address>;
  const l = launcher(
    {
      accounts: testAccounts(),
      contracts: { factory: factory as Address, wbnb: wbnb as Address },
      transport: http(`${f.service.origin}/rpc`),
    },
    f.client,
  );
  const launched = await l.launch({ pair: wbnb as Address, creator, saltSeed, openingTick: -207200 });
  if (launched.result !== 'ok' || !launched.pool) throw new Error(`the launch failed: ${launched.result}`);
  await f.service.indexer.waitFor(await f.client.getBlockNumber({ cacheTime: 0 }));
  return { token: launched.token, pool: launched.pool, creator: launched.creator.address, pair: wbnb as Address };
}

/** A wallet's trades of one token summed by average cost: what it holds, its cost, realized profit, spent, got. */
export function positionFromReceipts(receipts: readonly TransactionReceipt[], wallet: Address, token: Address) {
  let held = 0n;
  let cost = 0n;
  let realized = 0n;
  let spent = 0n;
  let received = 0n;
  for (const receipt of receipts) {
    const [event] = tradesIn(receipt);
    if (!event || event.wallet !== wallet || event.token !== token) throw new Error('no Trade of the wallet');
    const { pairAmount = 0n, tokenAmount = 0n, siteFee = 0n } = event;
    if (event.isBuy) {
      held += tokenAmount;
      cost += pairAmount;
      spent += pairAmount;
      continue;
    }
    const costOut = (cost * tokenAmount) / held;
    held -= tokenAmount;
    cost -= costOut;
    realized += pairAmount - siteFee - costOut;
    received += pairAmount - siteFee;
  }
  return { held, cost, realized, spent, received };
}
