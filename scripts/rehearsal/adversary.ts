/**
 * A searcher against a rehearsal, each kind its own process, with only what a searcher on BSC has: the node's mempool
 * (`/rpc`: a pending-transaction filter, eth_getTransactionByHash, txpool_content) and the public API. It plays the
 * attack for its best result, then prints what it spent and what it made.
 *
 *   npm run adversary -- --kind frontrun [--dust | --bids BNB] creates and prices a pending launch's pool first
 *   npm run adversary -- --kind sandwich [--tip above|below]  sandwiches pending BNB buys of the TradeRouter
 *   npm run adversary -- --kind snipe [--from mempool|events] [--amount 0.5]
 *
 * Common flags: --url (default http://127.0.0.1:8787), --account N (defaults: frontrun 10, sandwich 11, snipe 12),
 * --json (one JSON line per action, then {"balanceSheet": ...}), --max-actions N (stop after N attacks; by default it
 * runs until Ctrl-C or SIGTERM), --verbose (also name what it passed over). Sandwich: --budget BNB (its float, default
 * 100), --min-profit BNB (default 0). Snipe from events: --tip-gwei (default 3), --slippage-bps (default 500). Never
 * runs against chain 56 or 97.
 */
import { pathToFileURL } from 'node:url';
import {
  type Address,
  decodeErrorResult,
  decodeFunctionData,
  encodeFunctionData,
  formatGwei,
  type Hex,
  maxUint256,
  parseEther,
  parseEventLogs,
  parseGwei,
  type TransactionReceipt,
  zeroAddress,
} from 'viem';
import { ERC20, LaunchFactory, TradeRouter } from '../../src-main/chain/generated/contracts';
import {
  NonfungiblePositionManager,
  PancakeV3Factory,
  PancakeV3Pool,
  QuoterV2,
  SwapRouter,
  WETH9,
} from '../../src-main/chain/generated/vendor';
import { tracedRevertData } from '../../src-main/chain/tracedRevert';
import { getSqrtRatioAtTick, MAX_TICK, MIN_TICK } from '../../src-main/core/math/tickMath';
import { pairValueOf } from '../../src-main/core/swap/pairValueOf';
import type { PoolState } from '../../src-main/core/swap/poolState';
import { type SwapResult, simulateSwap } from '../../src-main/core/swap/simulateSwap';
import { grossForNet, siteFeeOn } from '../../src-main/core/trade/siteFee';
import {
  afterSwap,
  bnb,
  chainTime,
  latestBaseFee,
  parseArgs,
  type RehearsalNode,
  type RehearsalSettings,
  RpcWallet,
  readPoolState,
  readSettings,
  rehearsalNode,
  rehearsalUrls,
  testKey,
} from './rpcWallet';

export type AdversaryKind = 'frontrun' | 'sandwich' | 'snipe';

const DEFAULT_ACCOUNT: Record<AdversaryKind, number> = { frontrun: 10, sandwich: 11, snipe: 12 };
/** About 100 times the opening price: where the frontrunner prices a launch's pool. */
const FAR_TICKS = 46_000;
const DUST = parseEther('0.0001');
const CREATE_POOL_GAS = 6_500_000n;
const MINT_GAS = 800_000n;
const SWAP_GAS = 400_000n;
const APPROVE_GAS = 100_000n;
const BUY_GAS = 700_000n;
/** Gas a SwapRouter swap and an approval use, for the sandwich's cost estimate before it sends. */
const SWAP_GAS_USED = 140_000n;
const APPROVE_GAS_USED = 46_000n;
const OUTCOME_TIMEOUT_MS = 30_000;

/** A pending (or mined) transaction as eth_getTransactionByHash answers it. */
interface RpcTx {
  hash: Hex;
  from: Address;
  to: Address | null;
  input: Hex;
  value: Hex;
  nonce: Hex;
  gasPrice?: Hex;
  maxFeePerGas?: Hex;
  maxPriorityFeePerGas?: Hex;
  blockNumber: Hex | null;
}

/** One of our transactions, or another's we watched, once it is settled. */
interface Landed {
  role: string;
  hash: Hex;
  block: number | null;
  index: number | null;
  status: 'success' | 'reverted' | 'dropped';
  gasUsed: string;
  gasWei: string;
  from: Address;
}

interface HeldToken {
  token: Address;
  pool: Address;
}

/** What every kind shares: the node, the API's settings, its own wallet, and where it writes. */
interface Context {
  node: RehearsalNode;
  apiUrl: string;
  settings: RehearsalSettings;
  wallet: RpcWallet;
  out(record: Record<string, unknown>, line: string): void;
  /** Our own transaction's receipt (its gas counted once), or null when it left the mempool unmined. */
  ours(role: string, hash: Hex): Promise<{ landed: Landed; receipt: TransactionReceipt | null }>;
  /** Someone else's transaction, settled. */
  theirs(role: string, hash: Hex): Promise<{ landed: Landed; receipt: TransactionReceipt | null }>;
  /** Takes one of the attacks allowed (--max-actions) just before sending one; false when none is left. */
  claim(): boolean;
  held: Map<Address, HeldToken>;
  /** Pair wei locked in positions we still own, counted in the balance sheet. */
  positionsWei: bigint;
  bnbSpentWei: bigint;
  bnbReceivedWei: bigint;
}

/** One kind of adversary: what it prepares, what it does with a pending transaction, and what else it reports. */
interface Adversary {
  setup(): Promise<void>;
  /** Handles a pending transaction: resolves to the action's outcome when it attacked, or undefined. */
  onPending?(tx: RpcTx): Promise<Record<string, unknown> | undefined> | undefined;
  /** Runs on its own (the events sniper): hands `follow` each attack's outcome. */
  run?(follow: (outcome: Promise<Record<string, unknown> | undefined>) => void, stopped: () => boolean): Promise<void>;
  summary(actions: Record<string, unknown>[]): Record<string, unknown>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const reason = (error: unknown) => (error instanceof Error ? error.message.split('\n')[0] : String(error));
const same = (a: string | null | undefined, b: string | null | undefined) =>
  !!a && !!b && a.toLowerCase() === b.toLowerCase();
const json = (value: unknown) =>
  JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));

/** The priority fee per gas a pending transaction pays the block at the given base fee. */
function tipOf(tx: RpcTx, baseFee: bigint): bigint {
  if (tx.maxPriorityFeePerGas !== undefined && tx.maxFeePerGas !== undefined) {
    const cap = BigInt(tx.maxFeePerGas) - baseFee;
    const tip = BigInt(tx.maxPriorityFeePerGas);
    return tip < cap ? tip : cap > 0n ? cap : 0n;
  }
  const price = BigInt(tx.gasPrice ?? '0x0') - baseFee;
  return price > 0n ? price : 0n;
}

async function waitSettled(node: RehearsalNode, hash: Hex, timeoutMs = OUTCOME_TIMEOUT_MS) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const receipt = await node.client.getTransactionReceipt({ hash }).catch(() => null);
    if (receipt) return receipt;
    const known = await node.call<RpcTx | null>('eth_getTransactionByHash', [hash]).catch(() => null);
    if (!known || Date.now() > deadline) return null;
    await sleep(100);
  }
}

function landedOf(role: string, hash: Hex, from: Address, receipt: TransactionReceipt | null): Landed {
  return {
    role,
    hash,
    from,
    block: receipt ? Number(receipt.blockNumber) : null,
    index: receipt ? receipt.transactionIndex : null,
    status: receipt ? receipt.status : 'dropped',
    gasUsed: receipt ? receipt.gasUsed.toString() : '0',
    gasWei: receipt ? (receipt.gasUsed * receipt.effectiveGasPrice).toString() : '0',
  };
}

/** True when the transactions all landed in one block, in the order given. */
function inOrderInOneBlock(...landed: Landed[]): boolean {
  const first = landed[0];
  if (!first || first.block === null) return false;
  return landed.every(
    (l, i) => l.block === first.block && l.index !== null && (i === 0 || l.index > (landed[i - 1]?.index ?? -1)),
  );
}

/** The order the transactions landed in, as "victim, front, back (block 12)". */
function orderOf(...landed: Landed[]): string {
  const placed = landed.filter((l) => l.block !== null && l.index !== null);
  placed.sort((a, b) => (a.block as number) - (b.block as number) || (a.index as number) - (b.index as number));
  const blocks = [...new Set(placed.map((l) => l.block))];
  return `${placed.map((l) => l.role).join(', ')} (block${blocks.length > 1 ? 's' : ''} ${blocks.join(', ')})`;
}

/** The custom error a reverted transaction stopped with, replayed by the node's tracer. */
async function revertReason(node: RehearsalNode, hash: Hex, abi: readonly unknown[]): Promise<string> {
  try {
    const data = (await tracedRevertData((method, params) => node.call(method, params), hash)) ?? '0x';
    if (data === '0x') return 'reverted without a reason';
    try {
      const decoded = decodeErrorResult({ abi: abi as never, data });
      return decoded.args?.length ? `${decoded.errorName}(${json(decoded.args)})` : decoded.errorName;
    } catch {
      return `reverted with ${data.slice(0, 10)}`;
    }
  } catch (error) {
    return `unknown (${reason(error)})`;
  }
}

/** The pair amount a swap of the pool paid in (> 0) or out (< 0), from the Swap event in a receipt. */
function pairDelta(receipt: TransactionReceipt | null, pool: Address, pairIs0: boolean): bigint {
  if (receipt?.status !== 'success') return 0n;
  const logs = parseEventLogs({ abi: PancakeV3Pool.abi, logs: receipt.logs, eventName: 'Swap' });
  return logs
    .filter((log) => same(log.address, pool))
    .reduce((sum, log) => sum + (pairIs0 ? log.args.amount0 : log.args.amount1), 0n);
}

/** Follows the mempool: what already waits (txpool_content), then each new hash of a pending-transaction filter. */
async function watchMempool(node: RehearsalNode, onTx: (tx: RpcTx) => void, stopped: () => boolean): Promise<void> {
  const seen = new Set<Hex>();
  const handle = (tx: RpcTx | null) => {
    if (!tx || tx.blockNumber !== null || seen.has(tx.hash)) return;
    seen.add(tx.hash);
    onTx(tx);
  };
  let filter = await node.call<Hex>('eth_newPendingTransactionFilter');
  const content = await node.call<{ pending: Record<string, Record<string, RpcTx>> }>('txpool_content');
  for (const byNonce of Object.values(content.pending)) for (const tx of Object.values(byNonce)) handle(tx);
  while (!stopped()) {
    let hashes: Hex[] = [];
    try {
      hashes = await node.call<Hex[]>('eth_getFilterChanges', [filter]);
    } catch {
      // The node forgot the filter (a restart), or is away for a moment: make a new one.
      await sleep(500);
      filter = await node.call<Hex>('eth_newPendingTransactionFilter').catch(() => filter);
    }
    const fresh = hashes.filter((hash) => !seen.has(hash));
    if (fresh.length > 0) {
      const txs = await Promise.all(
        fresh.map((hash) => node.call<RpcTx | null>('eth_getTransactionByHash', [hash]).catch(() => null)),
      );
      for (const tx of txs) handle(tx);
    }
    await sleep(fresh.length > 0 ? 0 : 20);
  }
  await node.call('eth_uninstallFilter', [filter]).catch(() => undefined);
}

/** Wraps `amount` BNB into WBNB and approves `spender` to take any of it: an adversary's float, set up once. */
async function wrapAndApprove(ctx: Context, wbnb: Address, amount: bigint, spender: Address): Promise<void> {
  const deposit = await ctx.wallet.send({
    to: wbnb,
    data: encodeFunctionData({ abi: WETH9.abi, functionName: 'deposit' }),
    value: amount,
    gas: 100_000n,
  });
  const approve = await ctx.wallet.send({
    to: wbnb,
    data: encodeFunctionData({ abi: WETH9.abi, functionName: 'approve', args: [spender, maxUint256] }),
    gas: APPROVE_GAS,
  });
  await ctx.ours('setup', deposit.hash);
  await ctx.ours('setup', approve.hash);
}

/** A pending launch of the factory, decoded, with the token (and so the pool) it will create. */
async function decodeLaunch(ctx: Context, tx: RpcTx) {
  const { factory, pancakeFactory } = ctx.settings.contracts;
  if (!same(tx.to, factory) || same(tx.from, ctx.wallet.address)) return undefined;
  let params: ReturnType<typeof launchParamsOf>;
  try {
    params = launchParamsOf(tx.input);
  } catch {
    return undefined;
  }
  if (!params) return undefined;
  const token = await ctx.node.client.readContract({
    address: factory,
    abi: LaunchFactory.abi,
    functionName: 'tokenAddress',
    args: [tx.from, params.salt, params.name, params.symbol, params.supply],
  });
  const pool = await ctx.node.client.readContract({
    address: pancakeFactory,
    abi: PancakeV3Factory.abi,
    functionName: 'getPool',
    args: [token, params.pair, params.fee],
  });
  return { params, token, pool, tokenIs0: BigInt(token) < BigInt(params.pair) };
}

function launchParamsOf(input: Hex) {
  const call = decodeFunctionData({ abi: LaunchFactory.abi, data: input });
  return call.functionName === 'launch' ? call.args[0] : undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// frontrun

function frontrunner(ctx: Context, options: { dust: boolean; bidsWei: bigint }): Adversary {
  const { positionManager, wbnb, pancakeFactory } = ctx.settings.contracts;
  const { node, wallet } = ctx;
  let blocked = 0;
  let creatorGasWei = 0n;
  let ourGasWei = 0n;
  let creatorGasUsed = 0n;
  let ourGasUsed = 0n;
  /** Tokens whose pool we already took: a replaced launch (a fee bump) is the same launch. */
  const targeted = new Set<Address>();
  return {
    async setup() {
      if (!options.dust) return;
      // WBNB for the dust positions, approved to the position manager once.
      await wrapAndApprove(ctx, wbnb, options.bidsWei * 100n, positionManager);
    },

    onPending(tx) {
      return (async () => {
        const launch = await decodeLaunch(ctx, tx);
        if (!launch) return undefined;
        const { params, token, tokenIs0 } = launch;
        if (targeted.has(token)) return undefined;
        if (launch.pool !== zeroAddress) {
          const [price] = await node.client.readContract({
            address: launch.pool,
            abi: PancakeV3Pool.abi,
            functionName: 'slot0',
          });
          if (price !== 0n) return undefined;
        }
        const spacing = await node.client.readContract({
          address: pancakeFactory,
          abi: PancakeV3Factory.abi,
          functionName: 'feeAmountTickSpacing',
          args: [params.fee],
        });
        // The token priced about 100 times its opening price: far enough that the launch could never use the pool.
        const far = Math.round(FAR_TICKS / spacing) * spacing;
        const top = Math.floor(MAX_TICK / spacing) * spacing - 2 * spacing;
        const bottom = Math.ceil(MIN_TICK / spacing) * spacing + 2 * spacing;
        const initTick = Math.min(top, Math.max(bottom, params.openingTick + (tokenIs0 ? far : -far)));
        const [token0, token1] = tokenIs0 ? [token, params.pair] : [params.pair, token];
        const baseFee = await latestBaseFee(node);
        const tipWei = tipOf(tx, baseFee) + parseGwei('1');
        const maxFeePerGas = baseFee * 2n + tipWei;
        if (!ctx.claim()) return undefined;
        targeted.add(token);
        const create = await wallet.send({
          to: positionManager,
          data: encodeFunctionData({
            abi: NonfungiblePositionManager.abi,
            functionName: 'createAndInitializePoolIfNecessary',
            args: [token0, token1, params.fee, getSqrtRatioAtTick(initTick)],
          }),
          gas: CREATE_POOL_GAS,
          tipWei,
          maxFeePerGas,
        });
        let dust: Hex | undefined;
        if (options.dust && same(params.pair, wbnb)) {
          // Pair-only liquidity beside the price (the token does not exist yet): bids below when the pair is
          // token1, asks above when it is token0.
          const [tickLower, tickUpper] = tokenIs0
            ? [initTick - spacing, initTick]
            : [initTick + spacing, initTick + 2 * spacing];
          const deadline = (await chainTime(node)) + 600n;
          dust = (
            await wallet.send({
              to: positionManager,
              data: encodeFunctionData({
                abi: NonfungiblePositionManager.abi,
                functionName: 'mint',
                args: [
                  {
                    token0,
                    token1,
                    fee: params.fee,
                    tickLower,
                    tickUpper,
                    amount0Desired: tokenIs0 ? 0n : options.bidsWei,
                    amount1Desired: tokenIs0 ? options.bidsWei : 0n,
                    amount0Min: 0n,
                    amount1Min: 0n,
                    recipient: wallet.address,
                    deadline,
                  },
                ],
              }),
              gas: MINT_GAS,
              tipWei,
              maxFeePerGas,
            })
          ).hash;
        }
        ctx.out(
          { sent: { kind: 'frontrun', launch: tx.hash, createPool: create.hash, dust: dust ?? null } },
          `frontrun: saw launch ${tx.hash} of ${params.symbol} by ${tx.from}; pricing its pool at tick ${initTick} first`,
        );
        const [created, minted, launched] = await Promise.all([
          ctx.ours('createPool', create.hash),
          dust ? ctx.ours('dust', dust) : Promise.resolve(undefined),
          ctx.theirs('launch', tx.hash),
        ]);
        let dustWei = 0n;
        if (minted?.receipt?.status === 'success') {
          const [event] = parseEventLogs({
            abi: NonfungiblePositionManager.abi,
            logs: minted.receipt.logs,
            eventName: 'IncreaseLiquidity',
          });
          dustWei = event ? event.args.amount0 + event.args.amount1 : 0n;
          ctx.positionsWei += dustWei;
        }
        const pool = await node.client.readContract({
          address: pancakeFactory,
          abi: PancakeV3Factory.abi,
          functionName: 'getPool',
          args: [token, params.pair, params.fee],
        });
        const launchReverted = launched.landed.status === 'reverted';
        const why = launchReverted ? await revertReason(node, tx.hash, LaunchFactory.abi) : null;
        const attackerGas = BigInt(created.landed.gasWei) + BigInt(minted?.landed.gasWei ?? '0');
        const creatorGas = BigInt(launched.landed.gasWei);
        if (launchReverted) {
          blocked++;
          creatorGasWei += creatorGas;
          creatorGasUsed += BigInt(launched.landed.gasUsed);
        }
        ourGasWei += attackerGas;
        ourGasUsed += BigInt(created.landed.gasUsed) + BigInt(minted?.landed.gasUsed ?? '0');
        const landedFirst = inOrderInOneBlock(created.landed, ...(minted ? [minted.landed] : []), launched.landed);
        return {
          kind: 'frontrun',
          did: `created ${token}'s pool at tick ${initTick} (the launch opens at ${params.openingTick})${dust ? ` with ${bnb(dustWei)} BNB of dust liquidity` : ''}`,
          launch: { hash: tx.hash, creator: tx.from, token, pool, openingTick: params.openingTick },
          txs: [created.landed, ...(minted ? [minted.landed] : []), launched.landed],
          landedFirstInSameBlock: landedFirst,
          launchReverted,
          launchRevertReason: why,
          attackerGasWei: attackerGas,
          creatorGasWei: creatorGas,
          dustWei,
          result: launchReverted
            ? `the launch reverted (${why}): it cost us ${bnb(attackerGas)} BNB of gas and the creator ${bnb(creatorGas)} BNB`
            : `the launch ${launched.landed.status === 'success' ? 'landed anyway' : 'left the mempool'}: we spent ${bnb(attackerGas)} BNB of gas for nothing`,
        };
      })();
    },

    summary() {
      return {
        launchesBlocked: blocked,
        creatorGasLostWei: creatorGasWei,
        creatorGasLostBnb: bnb(creatorGasWei),
        attackGasWei: ourGasWei,
        attackGasUsed: ourGasUsed,
        creatorGasUsed,
        // In gas, the price each side bid aside: how many times the creator's loss the block cost the attacker.
        attackerToCreatorGas: creatorGasUsed > 0n ? Number((ourGasUsed * 100n) / creatorGasUsed) / 100 : null,
      };
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// sandwich

interface Victim {
  exactIn: boolean;
  token: Address;
  fee: number;
  amount: bigint;
  limit: bigint;
  value: bigint;
  deadline: bigint;
}

/** The sandwich's arithmetic on a pool state: how the victim fares after a front-run, and what the round trip earns. */
function sandwichMath(pool: PoolState, victim: Victim, buyZeroForOne: boolean, siteFeeBps: number) {
  const net = victim.exactIn ? victim.amount - siteFeeOn(victim.amount, siteFeeBps) : 0n;
  const swapVictim = (state: PoolState): SwapResult | undefined => {
    try {
      const swap = simulateSwap(state, buyZeroForOne, victim.exactIn ? net : -victim.amount);
      return swap.filled ? swap : undefined;
    } catch {
      return undefined;
    }
  };
  /** The router's own checks of the victim's trade on that state: true when it would still go through. */
  const victimOk = (swap: SwapResult | undefined) => {
    if (!swap) return false;
    if (victim.exactIn) return swap.amountOut > 0n && swap.amountOut >= victim.limit;
    const pairIn = grossForNet(swap.amountIn, siteFeeBps);
    return pairIn <= victim.limit && pairIn <= victim.value;
  };
  const buy = (state: PoolState, x: bigint) => simulateSwap(state, buyZeroForOne, x);
  const sell = (state: PoolState, tokens: bigint) => simulateSwap(state, !buyZeroForOne, tokens);

  return {
    swapVictim,
    victimOk,
    /** The largest front-run (pair wei in) after which the victim still gets its limit; 0 when none. */
    largestFront(budget: bigint): bigint {
      if (!victimOk(swapVictim(pool))) return 0n;
      const fits = (x: bigint) => {
        try {
          return victimOk(swapVictim(afterSwap(pool, buy(pool, x))));
        } catch {
          return false;
        }
      };
      if (fits(budget)) return budget;
      let [low, high] = [0n, budget];
      while (high - low > 1n) {
        const middle = (low + high) / 2n;
        if (fits(middle)) low = middle;
        else high = middle;
      }
      return low;
    },
    /** Front-run of x, the victim, then a back-run selling what the front bought: pair wei made (or lost). */
    roundTrip(x: bigint, front: 'first' | 'afterVictim', throughRouter: boolean) {
      let state = pool;
      if (front === 'afterVictim') {
        const swap = swapVictim(state);
        if (swap) state = afterSwap(state, swap);
      }
      const spend = throughRouter ? x - siteFeeOn(x, siteFeeBps) : x;
      const frontSwap = buy(state, spend);
      state = afterSwap(state, frontSwap);
      if (front === 'first') {
        const swap = swapVictim(state);
        if (swap) state = afterSwap(state, swap);
      }
      const backSwap = sell(state, frontSwap.amountOut);
      const gross = backSwap.amountOut;
      const back = throughRouter ? gross - siteFeeOn(gross, siteFeeBps) : gross;
      const paid = throughRouter ? x : frontSwap.amountIn;
      return { paid, tokens: frontSwap.amountOut, back, profit: back - paid };
    },
  };
}

function sandwicher(ctx: Context, options: { tip: 'above' | 'below'; budget: bigint; minProfit: bigint }): Adversary {
  const { router, wbnb, swapRouter, pancakeFactory } = ctx.settings.contracts;
  const { node, wallet } = ctx;
  const pools = new Map<Address, Address>();
  const approved = new Set<Address>();
  /** Sandwiches of ours not yet mined. */
  let pending = 0;
  let float = options.budget;
  let busy: Promise<unknown> = Promise.resolve();
  let profitWei = 0n;
  let attacks = 0;

  const poolOf = async (token: Address, fee: number) => {
    const known = pools.get(token);
    if (known) return known;
    const pool = await node.client.readContract({
      address: pancakeFactory,
      abi: PancakeV3Factory.abi,
      functionName: 'getPool',
      args: [token, wbnb, fee],
    });
    pools.set(token, pool);
    return pool;
  };

  /** Whether a pending transaction trades `token`, through our router or the pool's SwapRouter. */
  const tradesToken = (other: RpcTx, token: Address): boolean => {
    try {
      if (same(other.to, router)) {
        const call = decodeFunctionData({ abi: TradeRouter.abi, data: other.input });
        const first = call.args?.[0] as { token?: Address } | undefined;
        return same(first?.token, token);
      }
      if (same(other.to, swapRouter)) {
        const call = decodeFunctionData({ abi: SwapRouter.abi, data: other.input });
        if (call.functionName !== 'exactInputSingle' && call.functionName !== 'exactOutputSingle') return false;
        const [params] = call.args;
        return same(params.tokenIn, token) || same(params.tokenOut, token);
      }
    } catch {
      return false;
    }
    return false;
  };

  const victimOf = (tx: RpcTx): Victim | undefined => {
    if (!same(tx.to, router) || same(tx.from, wallet.address)) return undefined;
    try {
      const call = decodeFunctionData({ abi: TradeRouter.abi, data: tx.input });
      if (call.functionName !== 'buyExactIn' && call.functionName !== 'buyExactOut') return undefined;
      const trade = call.args[0];
      if (!same(trade.pair, wbnb)) return undefined;
      return {
        exactIn: call.functionName === 'buyExactIn',
        token: trade.token,
        fee: trade.fee,
        amount: trade.amount,
        limit: trade.limit,
        value: BigInt(tx.value),
        deadline: trade.deadline,
      };
    } catch {
      return undefined;
    }
  };

  /**
   * Plans and sends one sandwich; resolves to its outcome still to come (wrapped, so that waiting for the plan does not
   * wait for the outcome), or undefined when it passed the victim over.
   * Plans are made one at a time (each on the float the last one left), outcomes are followed side by side.
   */
  async function attack(tx: RpcTx, victim: Victim): Promise<{ outcome: Promise<Record<string, unknown>> } | undefined> {
    const pool = await poolOf(victim.token, victim.fee);
    if (pool === zeroAddress) return undefined;
    if (pending > 0) {
      // One account keeps its nonce order: a front sent behind our last back-run still waiting would land after it,
      // behind the victim.
      ctx.out(
        { skip: { victim: tx.hash, why: 'our last sandwich is still pending' } },
        `sandwich: skipped ${tx.hash}: our last sandwich is still pending`,
      );
      return undefined;
    }
    // Still waiting? A victim mined while we were busy is gone.
    const still = await node.call<RpcTx | null>('eth_getTransactionByHash', [tx.hash]);
    if (!still || still.blockNumber !== null) return undefined;
    const [state, baseFee, now, txpool] = await Promise.all([
      readPoolState(node, pool),
      latestBaseFee(node),
      chainTime(node),
      node.call<{ pending: Record<string, Record<string, RpcTx>> }>('txpool_content'),
    ]);
    if (victim.deadline < now) return undefined;
    const pairIs0 = BigInt(wbnb) < BigInt(victim.token);
    const math = sandwichMath(state, victim, pairIs0, ctx.settings.siteFeeBps);
    const largest = math.largestFront(float);
    if (largest === 0n) {
      ctx.out(
        { skip: { victim: tx.hash, why: 'no room: the victim would miss its limit after any front-run' } },
        `sandwich: skipped ${tx.hash}: its limit leaves no room`,
      );
      return undefined;
    }
    // The best size up to that bound: the round trip's result on a grid of sizes, the bound itself included. The
    // pool's own SwapRouter is weighed against our TradeRouter (which takes the site fee on both legs).
    const sizes = new Set<bigint>([largest]);
    for (let k = 1n; k <= 64n; k++) sizes.add((largest * k) / 64n);
    for (let j = 7n; j <= 30n; j++) sizes.add(largest >> j);
    let best = { x: 0n, profit: -(2n ** 255n), tokens: 0n };
    let bestThroughRouter = -(2n ** 255n);
    for (const x of sizes) {
      if (x <= 0n) continue;
      try {
        const direct = math.roundTrip(x, 'first', false);
        if (direct.profit > best.profit) best = { x, profit: direct.profit, tokens: direct.tokens };
        const routed = math.roundTrip(x, 'first', true);
        if (routed.profit > bestThroughRouter) bestThroughRouter = routed.profit;
      } catch {
        // A size the pool cannot take: not a candidate.
      }
    }
    if (options.tip === 'below') {
      // The same sandwich bid under the victim: its front lands after the victim, so it buys (and plans) at the
      // victim's price.
      const late = math.roundTrip(best.x, 'afterVictim', false);
      best = { x: best.x, profit: late.profit, tokens: late.tokens };
    }
    // The block is ordered by tip: the front outbids everything pending, so it is the block's first trade; a trade of
    // the same token bidding at least the victim's would land between front and victim and spoil the plan.
    const victimTip = tipOf(tx, baseFee);
    const others = Object.values(txpool.pending)
      .flatMap((byNonce) => Object.values(byNonce))
      .filter((other) => other.hash !== tx.hash && !same(other.from, wallet.address));
    const topTip = others.reduce(
      (top, other) => (tipOf(other, baseFee) > top ? tipOf(other, baseFee) : top),
      victimTip,
    );
    if (
      options.tip === 'above' &&
      others.some((other) => tipOf(other, baseFee) >= victimTip && tradesToken(other, victim.token))
    ) {
      ctx.out(
        { skip: { victim: tx.hash, why: 'another trade of the token bids at least the victim' } },
        `sandwich: skipped ${tx.hash}: another trade of its token would land between`,
      );
      return undefined;
    }
    const step = victimTip / 10n > parseGwei('0.01') ? victimTip / 10n : parseGwei('0.01');
    const frontTip = options.tip === 'above' ? topTip + step : (victimTip * 9n) / 10n;
    const backTip = options.tip === 'above' ? (victimTip * 9n) / 10n : (victimTip * 8n) / 10n;
    const needsApproval = !approved.has(victim.token);
    const gasEstimate =
      SWAP_GAS_USED * (2n * baseFee + frontTip + backTip) +
      (needsApproval ? APPROVE_GAS_USED * (baseFee + frontTip) : 0n);
    if (options.tip === 'above' && best.profit - gasEstimate <= options.minProfit) {
      ctx.out(
        {
          skip: {
            victim: tx.hash,
            why: 'unprofitable',
            largestFrontWei: largest,
            bestProfitWei: best.profit,
            gasWei: gasEstimate,
          },
        },
        `sandwich: skipped ${tx.hash}: the best front-run of ${bnb(best.x)} BNB would make ${bnb(best.profit)} BNB against ${bnb(gasEstimate)} BNB of gas`,
      );
      return undefined;
    }
    if (!ctx.claim()) return undefined;
    const deadline = now + 120n;
    const swapData = (tokenIn: Address, tokenOut: Address, amountIn: bigint, amountOutMinimum: bigint) =>
      encodeFunctionData({
        abi: SwapRouter.abi,
        functionName: 'exactInputSingle',
        args: [
          {
            tokenIn,
            tokenOut,
            fee: victim.fee,
            recipient: wallet.address,
            deadline,
            amountIn,
            amountOutMinimum,
            sqrtPriceLimitX96: 0n,
          },
        ],
      });
    // Front: buys exactly the planned tokens or nothing (a moved pool makes it revert rather than overpay). Back:
    // sells those tokens for whatever the pool gives after the victim.
    const front = await wallet.send({
      to: swapRouter,
      data: swapData(wbnb, victim.token, best.x, best.tokens),
      gas: SWAP_GAS,
      tipWei: frontTip,
      maxFeePerGas: baseFee * 2n + frontTip,
    });
    let approval: Hex | undefined;
    if (needsApproval) {
      approval = (
        await wallet.send({
          to: victim.token,
          data: encodeFunctionData({ abi: ERC20.abi, functionName: 'approve', args: [swapRouter, maxUint256] }),
          gas: APPROVE_GAS,
          tipWei: frontTip,
          maxFeePerGas: baseFee * 2n + frontTip,
        })
      ).hash;
      approved.add(victim.token);
    }
    const back = await wallet.send({
      to: swapRouter,
      data: swapData(victim.token, wbnb, best.tokens, 0n),
      gas: SWAP_GAS,
      tipWei: backTip,
      maxFeePerGas: baseFee * 2n + backTip,
    });
    float -= best.x;
    pending++;
    ctx.held.set(victim.token, { token: victim.token, pool });
    ctx.out(
      { sent: { kind: 'sandwich', victim: tx.hash, front: front.hash, back: back.hash } },
      `sandwich: ${tx.hash} buys ${victim.token}: front-running with ${bnb(best.x)} BNB (tip ${options.tip} the victim's)`,
    );
    return {
      outcome: outcome(
        tx,
        victim,
        { pool, state, pairIs0, math, best, largest, bestThroughRouter, gasEstimate },
        {
          front: front.hash,
          approval,
          back: back.hash,
        },
      ).finally(() => {
        pending--;
      }),
    };
  }

  /** What came of a sandwich sent: where each transaction landed, what the victim got, what we made. */
  async function outcome(
    tx: RpcTx,
    victim: Victim,
    plan: {
      pool: Address;
      state: PoolState;
      pairIs0: boolean;
      math: ReturnType<typeof sandwichMath>;
      best: { x: bigint; profit: bigint; tokens: bigint };
      largest: bigint;
      bestThroughRouter: bigint;
      gasEstimate: bigint;
    },
    sent: { front: Hex; approval: Hex | undefined; back: Hex },
  ): Promise<Record<string, unknown>> {
    const { pool, state, pairIs0, math, best, largest, bestThroughRouter, gasEstimate } = plan;
    const { front, approval, back } = sent;
    const [frontLanded, approvalLanded, victimLanded, backLanded] = await Promise.all([
      ctx.ours('front', front),
      approval ? ctx.ours('approve', approval) : Promise.resolve(undefined),
      ctx.theirs('victim', tx.hash),
      ctx.ours('back', back),
    ]);
    const spent = pairDelta(frontLanded.receipt, pool, pairIs0);
    const received = -pairDelta(backLanded.receipt, pool, pairIs0);
    float += best.x - spent + received;
    ctx.bnbSpentWei += spent;
    ctx.bnbReceivedWei += received;
    const gasWei =
      BigInt(frontLanded.landed.gasWei) + BigInt(backLanded.landed.gasWei) + BigInt(approvalLanded?.landed.gasWei ?? 0);
    const profit = received - spent - gasWei;
    profitWei += profit;
    attacks++;
    let victimGot: bigint | null = null;
    if (victimLanded.receipt?.status === 'success') {
      const [trade] = parseEventLogs({ abi: TradeRouter.abi, logs: victimLanded.receipt.logs, eventName: 'Trade' });
      if (trade) victimGot = victim.exactIn ? trade.args.tokenAmount : trade.args.pairAmount;
    }
    const alone = math.swapVictim(state);
    const victimAlone = alone
      ? victim.exactIn
        ? alone.amountOut
        : grossForNet(alone.amountIn, ctx.settings.siteFeeBps)
      : null;
    const ordered = inOrderInOneBlock(frontLanded.landed, victimLanded.landed, backLanded.landed);
    return {
      kind: 'sandwich',
      tip: options.tip,
      path: 'swapRouter',
      did: `front-ran ${tx.hash} with ${bnb(best.x)} BNB of ${victim.token}, then sold the ${bnb(best.tokens)} tokens back`,
      victim: {
        hash: tx.hash,
        wallet: tx.from,
        side: victim.exactIn ? 'buyExactIn' : 'buyExactOut',
        amountWei: victim.amount,
        limitWei: victim.limit,
        got: victimGot,
        wouldHaveGotAlone: victimAlone,
        limitKept: victimGot === null ? null : victim.exactIn ? victimGot >= victim.limit : victimGot <= victim.limit,
      },
      planned: {
        largestFrontWei: largest,
        frontWei: best.x,
        tokens: best.tokens,
        profitWei: best.profit,
        throughRouterProfitWei: bestThroughRouter,
        gasEstimateWei: gasEstimate,
      },
      txs: [
        frontLanded.landed,
        ...(approvalLanded ? [approvalLanded.landed] : []),
        victimLanded.landed,
        backLanded.landed,
      ],
      frontVictimBackInOneBlock: ordered,
      spentWei: spent,
      receivedWei: received,
      gasWei,
      profitWei: profit,
      result: `${ordered ? 'front, victim, back in one block' : `landed ${orderOf(frontLanded.landed, victimLanded.landed, backLanded.landed)}`}${frontLanded.landed.status === 'success' ? '' : `, the front ${frontLanded.landed.status} (the pool moved first)`}: made ${bnb(received - spent)} BNB on the trades, ${bnb(profit)} BNB after ${bnb(gasWei)} BNB of gas`,
    };
  }

  return {
    async setup() {
      // Its float in WBNB, approved to the SwapRouter once: it trades the pool directly, without the site fee.
      await wrapAndApprove(ctx, wbnb, options.budget, swapRouter);
    },

    onPending(tx) {
      const victim = victimOf(tx);
      if (!victim) return undefined;
      // One plan at a time: each plans on the float as the last one left it.
      const planned = busy.then(() => attack(tx, victim));
      busy = planned.catch(() => undefined);
      return planned.then((sent) => sent?.outcome);
    },

    summary() {
      return { sandwiches: attacks, sandwichProfitWei: profitWei, sandwichProfitBnb: bnb(profitWei) };
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// snipe

function sniper(
  ctx: Context,
  options: { from: 'mempool' | 'events'; amount: bigint; tipWei: bigint; slippageBps: bigint },
): Adversary {
  const { router, wbnb, quoter } = ctx.settings.contracts;
  const { node, wallet } = ctx;
  let buys = 0;
  const distances: number[] = [];
  /** Tokens already bought: a replaced launch (a fee bump) is the same launch. */
  const sniped = new Set<Address>();

  async function buy(
    launch: { hash: Hex; token: Address; pool: Address | null; fee: number; symbol: string; block: number | null },
    tipWei: bigint,
    baseFee: bigint,
    limit: bigint,
  ): Promise<Record<string, unknown> | undefined> {
    if (sniped.has(launch.token) || !ctx.claim()) return undefined;
    sniped.add(launch.token);
    const deadline = (await chainTime(node)) + 120n;
    const sent = await wallet.send({
      to: router,
      data: encodeFunctionData({
        abi: TradeRouter.abi,
        functionName: 'buyExactIn',
        args: [
          {
            token: launch.token,
            pair: wbnb,
            fee: launch.fee,
            amount: options.amount,
            limit,
            referrer: zeroAddress,
            deadline,
          },
        ],
      }),
      value: options.amount,
      gas: BUY_GAS,
      tipWei,
      maxFeePerGas: baseFee * 2n + tipWei,
    });
    ctx.out(
      { sent: { kind: 'snipe', launch: launch.hash, buy: sent.hash } },
      `snipe: buying ${bnb(options.amount)} BNB of ${launch.symbol} ${launch.token}`,
    );
    const [bought, launched] = await Promise.all([ctx.ours('buy', sent.hash), ctx.theirs('launch', launch.hash)]);
    let tokens = 0n;
    let spent = 0n;
    if (bought.receipt?.status === 'success') {
      const [trade] = parseEventLogs({ abi: TradeRouter.abi, logs: bought.receipt.logs, eventName: 'Trade' });
      tokens = trade?.args.tokenAmount ?? 0n;
      spent = trade?.args.pairAmount ?? 0n;
      ctx.bnbSpentWei += spent;
    }
    const pool =
      launch.pool ??
      (launched.receipt
        ? (parseEventLogs({ abi: LaunchFactory.abi, logs: launched.receipt.logs, eventName: 'Launched' })[0]?.args
            .pool ?? null)
        : null);
    if (pool && tokens > 0n) ctx.held.set(launch.token, { token: launch.token, pool });
    const launchBlock = launched.landed.block ?? launch.block;
    const distance = bought.landed.block !== null && launchBlock !== null ? bought.landed.block - launchBlock : null;
    if (distance !== null && tokens > 0n) distances.push(distance);
    buys++;
    const why = bought.landed.status === 'reverted' ? await revertReason(node, sent.hash, TradeRouter.abi) : null;
    return {
      kind: 'snipe',
      from: options.from,
      did: `bought ${bnb(options.amount)} BNB of ${launch.token} at a tip of ${formatGwei(tipWei)} gwei`,
      launch: { hash: launch.hash, token: launch.token, block: launchBlock, index: launched.landed.index },
      txs: [launched.landed, bought.landed],
      blocksAfterLaunch: distance,
      spentWei: spent,
      tokens,
      result:
        bought.landed.status === 'success'
          ? `got ${bnb(tokens)} tokens ${distance === 0 ? 'in the launch block' : `${distance} block(s) after the launch`}`
          : `the buy ${bought.landed.status}${why ? ` (${why})` : ''}`,
    };
  }

  return {
    async setup() {},

    onPending:
      options.from === 'mempool'
        ? (tx) => {
            return (async () => {
              const launch = await decodeLaunch(ctx, tx);
              if (!launch) return undefined;
              if (!same(launch.params.pair, wbnb)) {
                ctx.out(
                  { skip: { launch: tx.hash, why: 'not a BNB pair' } },
                  `snipe: skipped ${tx.hash}: not paired with BNB`,
                );
                return undefined;
              }
              // Just under the launch's own tip: mined right after it, ahead of every lower bid.
              const baseFee = await latestBaseFee(node);
              const launchTip = tipOf(tx, baseFee);
              return buy(
                {
                  hash: tx.hash,
                  token: launch.token,
                  pool: null,
                  fee: launch.params.fee,
                  symbol: launch.params.symbol,
                  block: null,
                },
                launchTip > 0n ? launchTip - 1n : 0n,
                baseFee,
                // No quote before the token exists; nothing can come between the launch and a bid just under its
                // own, so the buy takes what the opening price gives.
                1n,
              );
            })();
          }
        : undefined,

    run:
      options.from === 'events'
        ? async (follow, stopped) => {
            const controller = new AbortController();
            const stopWatch = setInterval(() => {
              if (stopped()) controller.abort();
            }, 100);
            try {
              for await (const event of serverEvents(`${ctx.apiUrl}/events?types=launch`, controller.signal)) {
                if (event.event !== 'launch') continue;
                const launch = JSON.parse(event.data) as {
                  token: Address;
                  creator: Address;
                  pool: Address;
                  pair: Address;
                  feeTier: number;
                  symbol: string;
                  tx: Hex;
                  block: number;
                };
                if (same(launch.creator, wallet.address) || !same(launch.pair, wbnb)) continue;
                if (stopped()) break;
                // The pool is live now: the buy is quoted and limited, or a sandwicher takes it to nothing.
                const [baseFee, quoted] = await Promise.all([
                  latestBaseFee(node),
                  node.client
                    .simulateContract({
                      address: quoter,
                      abi: QuoterV2.abi,
                      functionName: 'quoteExactInputSingle',
                      args: [
                        {
                          tokenIn: wbnb,
                          tokenOut: launch.token,
                          amountIn: options.amount - siteFeeOn(options.amount, ctx.settings.siteFeeBps),
                          fee: launch.feeTier,
                          sqrtPriceLimitX96: 0n,
                        },
                      ],
                    })
                    .then(({ result }) => result[0])
                    .catch(() => 0n),
                ]);
                if (quoted === 0n) continue;
                follow(
                  buy(
                    {
                      hash: launch.tx,
                      token: launch.token,
                      pool: launch.pool,
                      fee: launch.feeTier,
                      symbol: launch.symbol,
                      block: launch.block,
                    },
                    options.tipWei,
                    baseFee,
                    (quoted * (10_000n - options.slippageBps)) / 10_000n,
                  ),
                );
              }
            } catch (error) {
              if (!controller.signal.aborted) throw error;
            } finally {
              clearInterval(stopWatch);
            }
          }
        : undefined,

    summary() {
      return { buys, blocksAfterLaunch: distances };
    },
  };
}

/** Server-Sent Events from `url`, one `{ event, data }` per message, until the signal aborts. */
async function* serverEvents(url: string, signal: AbortSignal): AsyncGenerator<{ event: string; data: string }> {
  const response = await fetch(url, { headers: { accept: 'text/event-stream' }, signal });
  if (!response.ok || !response.body) throw new Error(`GET ${url} answered ${response.status}`);
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const message = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      const data: string[] = [];
      for (const line of message.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (data.length > 0) yield { event, data: data.join('\n') };
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// the process

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const known = new Set([
    'kind',
    'url',
    'account',
    'json',
    'max-actions',
    'dust',
    'bids',
    'tip',
    'from',
    'amount',
    'tip-gwei',
    'budget',
    'min-profit',
    'verbose',
    'slippage-bps',
  ]);
  for (const name of args.keys()) if (!known.has(name)) throw new Error(`unknown option --${name}`);
  const kind = args.get('kind') as AdversaryKind;
  if (!(kind in DEFAULT_ACCOUNT)) throw new Error('--kind must be frontrun, sandwich or snipe');
  const asJson = args.has('json');
  const maxActions = Number(args.get('max-actions') ?? '0');
  const account = Number(args.get('account') ?? DEFAULT_ACCOUNT[kind]);
  const { rpcUrl, apiUrl } = rehearsalUrls(args.get('url') ?? 'http://127.0.0.1:8787');
  // Both refuse chain ids 56 and 97 before anything is signed.
  const node = await rehearsalNode(rpcUrl);
  const settings = await readSettings(apiUrl);
  if (settings.chainId !== node.chainId) {
    throw new Error(`the API serves chain ${settings.chainId} but the node chain ${node.chainId}`);
  }
  const wallet = new RpcWallet(node, testKey(account));
  const { wbnb } = settings.contracts;
  const balances = async () => {
    const [native, wrapped] = await Promise.all([
      node.client.getBalance({ address: wallet.address }),
      node.client.readContract({ address: wbnb, abi: ERC20.abi, functionName: 'balanceOf', args: [wallet.address] }),
    ]);
    return native + wrapped;
  };
  const startBalance = await balances();
  const countedGas = new Set<Hex>();
  let gasSpentWei = 0n;
  const ctx: Context = {
    node,
    apiUrl,
    settings,
    wallet,
    out: (record, line) => {
      // What it passed over is a line of its own in JSON; a person sees it with --verbose.
      if ('skip' in record && !asJson && !args.has('verbose')) return;
      console.log(asJson ? json(record) : line);
    },
    async ours(role, hash) {
      const receipt = await waitSettled(node, hash);
      if (receipt && !countedGas.has(hash)) {
        countedGas.add(hash);
        gasSpentWei += receipt.gasUsed * receipt.effectiveGasPrice;
      }
      return { landed: landedOf(role, hash, wallet.address, receipt), receipt };
    },
    async theirs(role, hash) {
      const receipt = await waitSettled(node, hash);
      const from = receipt?.from ?? (await node.call<RpcTx | null>('eth_getTransactionByHash', [hash]))?.from;
      return { landed: landedOf(role, hash, from ?? zeroAddress, receipt), receipt };
    },
    claim: () => false,
    held: new Map(),
    positionsWei: 0n,
    bnbSpentWei: 0n,
    bnbReceivedWei: 0n,
  };

  const adversary =
    kind === 'frontrun'
      ? frontrunner(ctx, {
          dust: args.has('dust') || args.has('bids'),
          bidsWei: args.has('bids') ? parseEther(args.get('bids') ?? '0') : DUST,
        })
      : kind === 'sandwich'
        ? sandwicher(ctx, {
            tip: args.get('tip') === 'below' ? 'below' : 'above',
            budget: parseEther(args.get('budget') ?? '100'),
            minProfit: parseEther(args.get('min-profit') ?? '0'),
          })
        : sniper(ctx, {
            from: args.get('from') === 'events' ? 'events' : 'mempool',
            amount: parseEther(args.get('amount') ?? '0.5'),
            tipWei: parseGwei(args.get('tip-gwei') ?? '3'),
            slippageBps: BigInt(args.get('slippage-bps') ?? '500'),
          });
  if (args.has('tip') && !['above', 'below'].includes(args.get('tip') ?? ''))
    throw new Error('--tip is above or below');
  if (args.has('from') && !['mempool', 'events'].includes(args.get('from') ?? '')) {
    throw new Error('--from is mempool or events');
  }
  await adversary.setup();

  const actions: Record<string, unknown>[] = [];
  const outstanding = new Set<Promise<unknown>>();
  let claimed = 0;
  let stopping = false;
  let finished: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finished = resolve;
  });
  const allClaimed = () => maxActions > 0 && claimed >= maxActions;
  const stopped = () => stopping || allClaimed();
  ctx.claim = () => {
    if (stopped()) return false;
    claimed++;
    return true;
  };
  /** Follows one pending transaction's handling: an attack's outcome is printed; one passed over resolves to nothing. */
  const follow = (outcome: Promise<Record<string, unknown> | undefined>): void => {
    const followed = outcome
      .then((action) => {
        if (!action) return;
        actions.push(action);
        ctx.out({ action }, `${kind}: ${String(action.did)}: ${String(action.result)}`);
      })
      .catch((error) => {
        ctx.out({ error: reason(error) }, `${kind}: an attack failed: ${reason(error)}`);
      })
      .finally(() => {
        outstanding.delete(followed);
        if (allClaimed() && outstanding.size === 0) finished();
      });
    outstanding.add(followed);
  };
  process.on('SIGINT', () => {
    stopping = true;
    finished();
  });
  process.on('SIGTERM', () => {
    stopping = true;
    finished();
  });

  ctx.out(
    { ready: { kind, account, address: wallet.address, chainId: node.chainId } },
    `${kind}: account ${account} (${wallet.address}) watching chain ${node.chainId} at ${rpcUrl}`,
  );
  const watching = adversary.onPending
    ? watchMempool(
        node,
        (tx) => {
          const outcome = adversary.onPending?.(tx);
          if (outcome) follow(outcome);
        },
        stopped,
      )
    : adversary.run?.(follow, stopped);
  watching?.catch((error) => {
    ctx.out({ error: reason(error) }, `${kind}: stopped watching: ${reason(error)}`);
    stopping = true;
    finished();
  });

  await done;
  stopping = true;
  // Outcomes still being followed get a few seconds to settle.
  const deadline = Date.now() + 8_000;
  while (outstanding.size > 0 && Date.now() < deadline) await sleep(100);

  const held = await Promise.all(
    [...ctx.held.values()].map(async ({ token, pool }) => {
      const amount = await node.client.readContract({
        address: token,
        abi: ERC20.abi,
        functionName: 'balanceOf',
        args: [wallet.address],
      });
      if (amount === 0n) return { token, amountWei: 0n, valueWei: 0n, ifSoldNowWei: 0n };
      const state = await readPoolState(node, pool);
      const tokenIs0 = BigInt(token) < BigInt(wbnb);
      let ifSoldNow = 0n;
      try {
        ifSoldNow = simulateSwap(state, tokenIs0, amount).amountOut;
      } catch {
        ifSoldNow = 0n;
      }
      return {
        token,
        amountWei: amount,
        valueWei: pairValueOf(amount, state.sqrtPriceX96, tokenIs0),
        ifSoldNowWei: ifSoldNow,
      };
    }),
  );
  const heldValue = held.reduce((sum, h) => sum + h.valueWei, 0n);
  const net = (await balances()) - startBalance + heldValue + ctx.positionsWei;
  const sheet = {
    kind,
    account,
    address: wallet.address,
    gasSpentWei,
    gasSpentBnb: bnb(gasSpentWei),
    bnbSpentOnTradesWei: ctx.bnbSpentWei,
    bnbSpentOnTradesBnb: bnb(ctx.bnbSpentWei),
    bnbReceivedWei: ctx.bnbReceivedWei,
    bnbReceivedBnb: bnb(ctx.bnbReceivedWei),
    tokensHeld: held,
    tokensHeldValueWei: heldValue,
    tokensHeldValueBnb: bnb(heldValue),
    positionsWei: ctx.positionsWei,
    netWei: net,
    netBnb: bnb(net),
    ...adversary.summary(actions),
    actions: actions.map((a) => ({ did: a.did, result: a.result })),
  };
  if (asJson) console.log(json({ balanceSheet: sheet }));
  else {
    console.log(`\n${kind} balance sheet (account ${account}, ${wallet.address})`);
    console.log(`  gas spent            ${sheet.gasSpentBnb} BNB`);
    console.log(`  BNB spent on trades  ${sheet.bnbSpentOnTradesBnb} BNB`);
    console.log(`  BNB received         ${sheet.bnbReceivedBnb} BNB`);
    console.log(`  tokens still held    ${sheet.tokensHeldValueBnb} BNB at the pools' prices`);
    if (ctx.positionsWei > 0n) console.log(`  in positions         ${bnb(ctx.positionsWei)} BNB`);
    console.log(`  net result           ${sheet.netBnb} BNB`);
    for (const [name, value] of Object.entries(adversary.summary(actions))) console.log(`  ${name}: ${json(value)}`);
    for (const action of actions) console.log(`  - ${String(action.did)}: ${String(action.result)}`);
  }
  process.exit(0);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    console.error(`adversary: ${reason(error)}`);
    process.exit(1);
  });
}
