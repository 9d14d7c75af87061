import { type Address, erc20Abi, type Hash, isAddressEqual, parseEventLogs } from 'viem';
import type { ChainContext } from '../chain/connectChain';
import { type MicroPrice, pairMicroPrice, tokenMicroPrice, type UsdRate } from '../core/units/dollarValue';
import type { CollectedTotals, IndexedLaunch } from '../store/indexStore';
import { chainRead } from './chainRead';
import { type LaunchFeeState, readLaunchFees } from './launchFees';
import type { TokenFacts } from './tokenRegistry';

/** A wallet that received a share of a launch's first buy, and what it holds of the token now. */
export interface FirstBuyHolder {
  wallet: Address;
  received: bigint;
  balance: bigint;
}

/** One launch of a creator, with what its locked liquidity has earned and where that went. Amounts are wei. */
export interface CreatorLaunch {
  launch: IndexedLaunch;
  token: TokenFacts;
  state: LaunchFeeState;
  collected: CollectedTotals;
  /** The first buy's recipients; empty for a launch without a first buy. */
  firstBuy: FirstBuyHolder[];
  /** What a pair wei and a token wei are worth in dollars now; null without a price. */
  pairUsd: MicroPrice | null;
  tokenUsd: MicroPrice | null;
}

/** Where the dashboard reads from: the index's launches and collections, the tokens' facts, dollar rates, the chain. */
export interface CreatorLaunchSources {
  index: { launchesBy(creator: Address): IndexedLaunch[]; collectedOf(token: Address): CollectedTotals };
  tokens: { get(address: Address, field: string): Promise<TokenFacts> };
  prices: { rate(pair: Address, decimals: number): Promise<UsdRate | null> };
  chain: ChainContext;
}

/**
 * A creator's dashboard: for every launch the wallet made here, the fees its positions earned (collected, from the
 * indexed `Collected` events, plus uncollected, read from the pool at one block), the royalty paid and the tokens
 * burned (from the same events), what waits in `buybackPending`, and what the first buy's recipients hold now.
 *
 * @example const launches = await new CreatorLaunches(sources).of(creator) // [{ token, state, collected, firstBuy, … }]
 */
export class CreatorLaunches {
  /** The first buy's recipients of each launch, from its receipt: fixed once the launch is mined. */
  private readonly recipients = new Map<Address, Promise<{ wallet: Address; received: bigint }[]>>();

  constructor(private readonly sources: CreatorLaunchSources) {}

  /** The creator's launches, newest first, every chain figure read at `block`. */
  async of(creator: Address): Promise<{ block: bigint; launches: CreatorLaunch[] }> {
    const { index, chain } = this.sources;
    const block = await chainRead('the latest block', () => chain.client.getBlockNumber({ cacheTime: 0 }));
    const launches = index.launchesBy(creator);
    return { block, launches: await Promise.all(launches.map((launch) => this.read(launch, block))) };
  }

  private async read(launch: IndexedLaunch, blockNumber: bigint): Promise<CreatorLaunch> {
    const { sources } = this;
    const [token, state, received] = await Promise.all([
      sources.tokens.get(launch.token, 'token'),
      readLaunchFees(sources.chain, launch.token, blockNumber),
      this.firstBuyRecipients(launch),
    ]);
    const rate = await sources.prices.rate(token.pair.address, token.pair.decimals).catch(() => null);
    const balances = await chainRead('the first-buy balances', () =>
      Promise.all(
        received.map(({ wallet }) =>
          sources.chain.client.readContract({
            address: launch.token,
            abi: erc20Abi,
            functionName: 'balanceOf',
            args: [wallet],
            blockNumber,
          }),
        ),
      ),
    );
    return {
      launch,
      token,
      state,
      collected: sources.index.collectedOf(launch.token),
      firstBuy: received.map((entry, i) => ({ ...entry, balance: balances[i] as bigint })),
      pairUsd: pairMicroPrice(rate),
      tokenUsd: tokenMicroPrice(state.sqrtPriceX96, token.tokenIs0, rate),
    };
  }

  /**
   * Who the first buy paid, and how much: the factory's transfers of the token in the launch transaction after the
   * pool paid it the first buy's tokens (before that, the factory only lays the supply into the pool and sends the
   * residue to the dead address). A share split to the dead address is listed too: it was burned.
   */
  private firstBuyRecipients(launch: IndexedLaunch): Promise<{ wallet: Address; received: bigint }[]> {
    if (launch.firstBuy === null) return Promise.resolve([]);
    let found = this.recipients.get(launch.token);
    if (!found) {
      found = this.readRecipients(launch, launch.txHash as Hash);
      this.recipients.set(launch.token, found);
      found.catch(() => this.recipients.delete(launch.token));
    }
    return found;
  }

  private async readRecipients(launch: IndexedLaunch, hash: Hash) {
    const { chain } = this.sources;
    const factory = chain.addresses.factory as Address;
    const receipt = await chainRead("the launch's receipt", () => chain.client.getTransactionReceipt({ hash }));
    const transfers = parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: receipt.logs }).filter((log) =>
      isAddressEqual(log.address, launch.token),
    );
    const bought = transfers.findLastIndex(
      (log) => isAddressEqual(log.args.from, launch.pool) && isAddressEqual(log.args.to, factory),
    );
    const paid = transfers.slice(bought + 1).filter((log) => isAddressEqual(log.args.from, factory));
    return paid.map((log) => ({ wallet: log.args.to, received: log.args.value }));
  }
}
