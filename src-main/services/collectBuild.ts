import { type Address, encodeFunctionData, isAddressEqual, parseEventLogs } from 'viem';
import type { UnsignedTx } from '../../src-shared/schema/unsignedTx';
import type { ChainContext } from '../chain/connectChain';
import { LaunchFactory } from '../chain/generated/contracts';
import type { EventPosition, ServiceEvent } from '../chain/serviceEvents';
import { ApiError } from '../core/errors';
import { formatWithSymbol } from '../core/units/decimalAmount';
import { type MicroPrice, pairMicroPrice, tokenMicroPrice, type UsdRate, usdText } from '../core/units/dollarValue';
import { chainRead } from './chainRead';
import { HeadReads } from './headReads';
import { type LaunchFeeState, readLaunchFees } from './launchFees';
import { simulateFrom } from './simulation';
import type { TokenFacts } from './tokenRegistry';

const BPS = 10_000n;

type CollectedEvent = Extract<ServiceEvent, { kind: 'collected' }>;

/**
 * What a collect does, from its simulation: the fees it takes from the positions, the royalty it pays and to whom,
 * the tokens it burns and the buy-back it leaves pending. `simulated` false (a chain of which no throw-away copy can
 * be made) gives what the positions' fees fix exactly, and the buy-back as what it may spend at most: `burned` is
 * then only the burn share of the token fees, and `pendingAfter` null.
 */
export interface CollectOutcome extends Omit<CollectedEvent, 'kind' | 'token' | keyof EventPosition> {
  simulated: boolean;
  pendingBefore: bigint;
  /** The pair the buy-back may spend: what was pending plus the burn share of the pair fees. */
  buybackBudget: bigint;
  pendingAfter: bigint | null;
}

export interface CollectBuild {
  wallet: Address;
  token: TokenFacts;
  outcome: CollectOutcome;
  tx: UnsignedTx;
  cost: { gasPriceWei: bigint; maxWei: bigint };
  bnbUsd: UsdRate | null;
  pairUsd: MicroPrice | null;
  tokenUsd: MicroPrice | null;
  explain: string;
}

export interface CollectSources {
  chain: ChainContext;
  tokens: { get(address: Address, field: string): Promise<TokenFacts> };
  prices: { rate(pair: Address, decimals: number): Promise<UsdRate | null> };
}

/**
 * Builds the factory's `collect(token)` for a wallet to send: anyone may, and the sender pays only the gas, while the
 * royalty goes to the launch's creator (or its `royaltyTo`). The call is simulated from the wallet at the latest
 * block; on the devnet it is also sent on a throw-away copy of the chain, and its `Collected` event says exactly who
 * gains what.
 *
 * @example const build = await new CollectBuilds(sources).build(wallet, token) // { tx, outcome: { pairToRoyalty, … }, explain }
 */
export class CollectBuilds {
  private readonly head: HeadReads;

  constructor(private readonly sources: CollectSources) {
    this.head = new HeadReads(sources.chain);
  }

  async build(wallet: Address, tokenAddress: Address): Promise<CollectBuild> {
    const { chain } = this.sources;
    const factory = chain.addresses.factory;
    if (!factory) throw new ApiError('NOT_DEPLOYED', `the launch factory is not deployed on ${chain.network}`);
    const token = await this.sources.tokens.get(tokenAddress, 'token');
    const [state, head, bnb, pairRate, bnbRate] = await Promise.all([
      readLaunchFees(chain, token.address),
      chainRead('the latest block and the gas price', () => this.head.read()),
      chainRead('the wallet balance', () => chain.client.getBalance({ address: wallet })),
      this.rate(token.pair.address, token.pair.decimals),
      this.rate(chain.addresses.wbnb, 18),
    ]);
    const tx: UnsignedTx = {
      chainId: chain.chainId,
      to: factory,
      data: encodeFunctionData({ abi: LaunchFactory.abi, functionName: 'collect', args: [token.address] }),
      value: '0',
    };
    const gas = await simulateFrom(chain, wallet, tx, 0n, 'the collect');
    tx.gas = gas.toString();
    const gasPriceWei = head.fees.maxFeePerGas;
    const maxWei = gas * gasPriceWei;
    if (bnb < maxWei) {
      const inBnb = { decimals: 18, symbol: 'BNB' };
      throw new ApiError(
        'INSUFFICIENT_BALANCE',
        `the wallet holds ${formatWithSymbol(bnb, inBnb)}; the collect needs up to ${formatWithSymbol(maxWei, inBnb)} of gas`,
      );
    }
    const outcome = (await this.onCopy(wallet, tx, token.address, state)) ?? expected(state);
    const pairUsd = pairMicroPrice(pairRate);
    const tokenUsd = tokenMicroPrice(state.sqrtPriceX96, token.tokenIs0, pairRate);
    return {
      wallet,
      token,
      outcome,
      tx,
      cost: { gasPriceWei, maxWei },
      bnbUsd: bnbRate,
      pairUsd,
      tokenUsd,
      explain: explainCollect(wallet, token, outcome, pairUsd),
    };
  }

  private rate(currency: Address, decimals: number): Promise<UsdRate | null> {
    return this.sources.prices.rate(currency, decimals).catch(() => null);
  }

  /** The collect sent from the wallet on a throw-away copy of the devnet, read from its event; null elsewhere. */
  private async onCopy(
    wallet: Address,
    tx: UnsignedTx,
    token: Address,
    state: LaunchFeeState,
  ): Promise<CollectOutcome | null> {
    const { devnet, client } = this.sources.chain;
    if (!devnet) return null;
    return devnet.onCopy(async (send) => {
      const hash = await send({ from: wallet, to: tx.to, data: tx.data });
      const receipt = await client.getTransactionReceipt({ hash });
      const event = parseEventLogs({ abi: LaunchFactory.abi, eventName: 'Collected', logs: receipt.logs }).find((log) =>
        isAddressEqual(log.args.token, token),
      );
      if (receipt.status !== 'success' || !event) {
        throw new ApiError('SIMULATION_FAILED', 'the collect reverted on a copy of the chain', {
          detail: { revert: { name: 'reverted on a copy of the chain', args: [], data: '0x' } },
        });
      }
      const { args } = event;
      const pairToBurn = args.pairFees - args.pairToRoyalty;
      return {
        simulated: true,
        recipient: args.royaltyRecipient,
        pairFees: args.pairFees,
        tokenFees: args.tokenFees,
        pairToRoyalty: args.pairToRoyalty,
        tokenToRoyalty: args.tokenToRoyalty,
        tokensBurned: args.tokensBurned,
        pendingBefore: state.buybackPending,
        buybackBudget: state.buybackPending + pairToBurn,
        pendingAfter: args.buybackPending,
      };
    });
  }
}

/** What the positions' fees fix without sending the call: the factory's own split, rounded as it rounds. */
function expected(state: LaunchFeeState): CollectOutcome {
  const burn = BigInt(state.burnBps);
  const pairToBurn = (state.uncollected.pair * burn) / BPS;
  const tokensBurned = (state.uncollected.token * burn) / BPS;
  return {
    simulated: false,
    recipient: state.recipient,
    pairFees: state.uncollected.pair,
    tokenFees: state.uncollected.token,
    pairToRoyalty: state.uncollected.pair - pairToBurn,
    tokenToRoyalty: state.uncollected.token - tokensBurned,
    tokensBurned,
    pendingBefore: state.buybackPending,
    buybackBudget: state.buybackPending + pairToBurn,
    pendingAfter: null,
  };
}

function explainCollect(wallet: Address, token: TokenFacts, o: CollectOutcome, pairUsd: MicroPrice | null): string {
  const pair = (wei: bigint) => {
    const usd = usdText(wei, pairUsd);
    return `${formatWithSymbol(wei, token.pair)}${usd === null ? '' : ` ($${usd})`}`;
  };
  const tokens = (wei: bigint) => formatWithSymbol(wei, token);
  const who = isAddressEqual(o.recipient, wallet) ? `you (${o.recipient})` : o.recipient;
  const royalty =
    o.pairToRoyalty === 0n && o.tokenToRoyalty === 0n
      ? `nothing is paid to ${who}`
      : `${who} receives ${pair(o.pairToRoyalty)}${o.tokenToRoyalty > 0n ? ` and ${tokens(o.tokenToRoyalty)}` : ''}`;
  const burn = o.simulated
    ? `${tokens(o.tokensBurned)} are bought back and burned, and ${pair(o.pendingAfter ?? 0n)} stays pending for a later buy-back`
    : `at least ${tokens(o.tokensBurned)} are burned, and up to ${pair(o.buybackBudget)} buys back and burns ${token.symbol} (what the price guard leaves stays pending)`;
  const sender = isAddressEqual(o.recipient, wallet) ? '' : ' You pay only the network fee.';
  return `Collect ${token.symbol}'s trading fees (${pair(o.pairFees)} and ${tokens(o.tokenFees)}): ${royalty}; ${burn}.${sender}`;
}
