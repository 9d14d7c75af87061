/**
 * Background traffic for a rehearsal at BSC's cadence: test accounts that buy and sell launched tokens through the
 * TradeRouter at random sizes, so the chosen pools trade in most blocks, and an arbitrageur that pulls a pushed price
 * back toward the pool's recent average, straight through PancakeSwap's SwapRouter.
 *
 *   npm run traffic -- --tps 4 [--tokens 0xA,0xB] [--url http://127.0.0.1:8787] [--seed 7] [--no-arbitrage]
 *
 * Without --tokens it trades every BNB-pair launch of GET /api/v1/launches, and the new ones as they come. It prints a
 * line every few seconds and a summary on Ctrl-C or SIGTERM (`--json`: the summary as one JSON line).
 */
import { pathToFileURL } from 'node:url';
import {
  type Address,
  encodeEventTopics,
  encodeFunctionData,
  type Hex,
  maxUint160,
  maxUint256,
  parseEther,
  parseGwei,
  zeroAddress,
} from 'viem';
import { ERC20, IPermit2, LaunchFactory, TradeRouter } from '../../src-main/chain/generated/contracts';
import { PancakeV3Pool, QuoterV2, SwapRouter, WETH9 } from '../../src-main/chain/generated/vendor';
import { getSqrtRatioAtTick } from '../../src-main/core/math/tickMath';
import { siteFeeOn } from '../../src-main/core/trade/siteFee';
import { parseArgs, RpcWallet, readSettings, rehearsalNode, rehearsalUrls, seededRandom, testKey } from './rpcWallet';

export type TrafficReport = {
  /** Trades sent (the traders' and the arbitrageur's), one-time approvals not counted. */
  sent: number;
  /** Trades mined and successful. */
  mined: number;
  /** Trades refused by the node, reverted, or dropped from the mempool. */
  failed: number;
  /** The arbitrageur's swaps that landed. */
  arbitrages: number;
  /** Blocks seen since the start in which at least one chosen pool traded (anyone's trade). */
  blocksWithTrades: number;
  /** Blocks seen since the start, from the first token traded on. */
  blocksSeen: number;
};

const DEFAULT_TRADERS = [13, 14, 15, 16, 17];
const DEFAULT_ARBITRAGEUR = 18;
const MIN_BUY = parseEther('0.001');
const MAX_BUY = parseEther('0.2');
/** Blocks of ticks the arbitrageur averages. */
const ARB_WINDOW = 20;
/** Samples it needs before it trusts the average. */
const ARB_MIN_SAMPLES = 5;
/** The most WBNB one arbitrage spends. */
const ARB_MAX_IN = parseEther('2');
/** WBNB the arbitrageur wraps at the start, and its starting token inventory per pool (in BNB). */
const ARB_FLOAT = parseEther('50');
const ARB_INVENTORY = parseEther('0.1');
const TRADE_GAS = 450_000n;
const SWAP_GAS = 600_000n;
const APPROVE_GAS = 100_000n;
/** A trade not mined this many blocks after it was sent, and gone from the mempool, counts as dropped. */
const DROP_AFTER_BLOCKS = 40n;
const FAR_EXPIRY = 2 ** 48 - 1;
const SWAP_TOPIC = encodeEventTopics({ abi: PancakeV3Pool.abi, eventName: 'Swap' })[0] as Hex;

interface Market {
  token: Address;
  pool: Address;
  fee: number;
  tokenIs0: boolean;
  /** slot0's tick at each block seen, newest last. */
  ticks: number[];
  arbPending: boolean;
}

interface InFlight {
  kind: 'trade' | 'arb';
  sentAt: bigint;
  onDone?: () => void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const reason = (error: unknown) => (error instanceof Error ? error.message.split('\n')[0] : String(error));

/** Starts the traffic; `stop()` ends it, waits a moment for what is in flight, and gives the final report. */
export async function startTraffic(options: {
  rpcUrl: string;
  apiUrl: string;
  /** Trades a second, all traders together (the arbitrageur's come on top). */
  tps: number;
  /** The tokens to trade; by default every BNB-pair launch the API lists, and new ones as they come. */
  tokens?: Address[];
  /** Test account indexes that trade (default 13-17). */
  traders?: number[];
  /** The arbitrageur's test account (default 18); null for none. */
  arbitrageur?: number | null;
  seed?: number;
  log?: (line: string) => void;
}): Promise<{ stop(): Promise<TrafficReport>; report(): TrafficReport }> {
  if (!(options.tps > 0)) throw new Error(`--tps must be above 0, not ${options.tps}`);
  const log = options.log ?? (() => {});
  const node = await rehearsalNode(options.rpcUrl);
  const settings = await readSettings(options.apiUrl);
  if (settings.chainId !== node.chainId) {
    throw new Error(`the API serves chain ${settings.chainId} but the node chain ${node.chainId}`);
  }
  const { wbnb, router, permit2, quoter, factory, swapRouter } = settings.contracts;
  const random = seededRandom(options.seed ?? Date.now());
  const traders = (options.traders ?? DEFAULT_TRADERS).map((index) => new RpcWallet(node, testKey(index)));
  const arbIndex = options.arbitrageur === undefined ? DEFAULT_ARBITRAGEUR : options.arbitrageur;
  const arbitrageur = arbIndex === null ? undefined : new RpcWallet(node, testKey(arbIndex));
  const counts: TrafficReport = { sent: 0, mined: 0, failed: 0, arbitrages: 0, blocksWithTrades: 0, blocksSeen: 0 };
  const markets = new Map<Address, Market>();
  const skipped = new Set<Address>();
  const inFlight = new Map<Hex, InFlight>();
  /** Sells waiting to be mined, per trader and token: a trader sells a token again only once the last sale landed. */
  const selling = new Set<string>();
  let head = await node.client.getBlockNumber();
  let now = BigInt((await node.client.getBlock({ blockNumber: head })).timestamp);
  let stopped = false;
  /** Set by stop(): nothing new is sent while what is in flight lands. */
  let closing = false;
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timers.add(timer);
  };

  const balanceOf = (token: Address, who: Address) =>
    node.client.readContract({ address: token, abi: ERC20.abi, functionName: 'balanceOf', args: [who] });
  const quote = async (tokenIn: Address, tokenOut: Address, fee: number, amountIn: bigint) => {
    const { result } = await node.client.simulateContract({
      address: quoter,
      abi: QuoterV2.abi,
      functionName: 'quoteExactInputSingle',
      args: [{ tokenIn, tokenOut, amountIn, fee, sqrtPriceLimitX96: 0n }],
    });
    return result[0];
  };
  const tip = () => parseGwei('0.01') + BigInt(Math.floor(random() * 90)) * parseGwei('0.001');

  async function sendTracked(wallet: RpcWallet, kind: InFlight['kind'], tx: Parameters<RpcWallet['send']>[0]) {
    counts.sent++;
    try {
      const { hash } = await wallet.send(tx);
      const entry: InFlight = { kind, sentAt: head };
      inFlight.set(hash, entry);
      return entry;
    } catch (error) {
      counts.failed++;
      wallet.resync();
      log(`traffic: a ${kind} from ${wallet.address} was refused: ${reason(error)}`);
      return undefined;
    }
  }

  /**
   * Sends a one-time setup transaction, retrying with a fresh nonce when another program sent from the same account
   * meanwhile (the devnet's seed trades from accounts 15-19 while it runs).
   */
  async function setupSend(wallet: RpcWallet, tx: Parameters<RpcWallet['send']>[0]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await wallet.send(tx);
        return;
      } catch (error) {
        wallet.resync();
        if (attempt >= 5) throw error;
        await sleep(attempt * 200);
      }
    }
  }

  if (arbitrageur) {
    // Its float in WBNB, approved to the SwapRouter once: it trades the pools directly, as an arbitrageur does.
    await setupSend(arbitrageur, {
      to: wbnb,
      data: encodeFunctionData({ abi: WETH9.abi, functionName: 'deposit' }),
      value: ARB_FLOAT,
      gas: 100_000n,
    });
    await setupSend(arbitrageur, {
      to: wbnb,
      data: encodeFunctionData({ abi: WETH9.abi, functionName: 'approve', args: [swapRouter, maxUint256] }),
      gas: APPROVE_GAS,
    });
  }

  async function addToken(token: Address): Promise<void> {
    if (markets.has(token) || skipped.has(token)) return;
    const launched = await node.client.readContract({
      address: factory,
      abi: LaunchFactory.abi,
      functionName: 'launchOf',
      args: [token],
    });
    if (launched.pool === zeroAddress || launched.pair.toLowerCase() !== wbnb.toLowerCase()) {
      skipped.add(token);
      log(`traffic: skipping ${token}: ${launched.pool === zeroAddress ? 'not a launch' : 'not paired with BNB'}`);
      return;
    }
    const fee = await node.client.readContract({ address: launched.pool, abi: PancakeV3Pool.abi, functionName: 'fee' });
    // Each trader lets the router pull the token through Permit2, once: sent now, mined before any sale of theirs.
    for (const trader of traders) {
      await setupSend(trader, {
        to: token,
        data: encodeFunctionData({ abi: ERC20.abi, functionName: 'approve', args: [permit2, maxUint256] }),
        gas: APPROVE_GAS,
      });
      await setupSend(trader, {
        to: permit2,
        data: encodeFunctionData({
          abi: IPermit2.abi,
          functionName: 'approve',
          args: [token, router, maxUint160, FAR_EXPIRY],
        }),
        gas: APPROVE_GAS,
      });
    }
    if (arbitrageur) {
      await setupSend(arbitrageur, {
        to: token,
        data: encodeFunctionData({ abi: ERC20.abi, functionName: 'approve', args: [swapRouter, maxUint256] }),
        gas: APPROVE_GAS,
      });
      // A little inventory, so it can sell into a price pushed up as well as buy into one pushed down.
      await setupSend(arbitrageur, {
        to: swapRouter,
        data: encodeFunctionData({
          abi: SwapRouter.abi,
          functionName: 'exactInputSingle',
          args: [
            {
              tokenIn: wbnb,
              tokenOut: token,
              fee,
              recipient: arbitrageur.address,
              deadline: now + 600n,
              amountIn: ARB_INVENTORY,
              amountOutMinimum: 0n,
              sqrtPriceLimitX96: 0n,
            },
          ],
        }),
        gas: SWAP_GAS,
      });
    }
    markets.set(token, {
      token,
      pool: launched.pool,
      fee,
      tokenIs0: BigInt(token) < BigInt(wbnb),
      ticks: [],
      arbPending: false,
    });
    log(`traffic: trading ${token} (pool ${launched.pool}, fee ${fee})`);
  }

  async function tradeOnce(): Promise<void> {
    if (closing) return;
    const list = [...markets.values()];
    const market = list[Math.floor(random() * list.length)];
    const trader = traders[Math.floor(random() * traders.length)];
    if (!market || !trader) return;
    const key = `${trader.address}:${market.token}`;
    const slippageBps = 50n + BigInt(Math.floor(random() * 250));
    const wantsSell = random() < 0.45;
    const held = wantsSell && !selling.has(key) ? await balanceOf(market.token, trader.address) : 0n;
    let data: Hex;
    let value = 0n;
    if (held > 0n) {
      const amount = (held * BigInt(25 + Math.floor(random() * 76))) / 100n;
      if (amount === 0n) return;
      const gross = await quote(market.token, wbnb, market.fee, amount);
      const net = gross - siteFeeOn(gross, settings.siteFeeBps);
      if (net <= 0n) return;
      const params = tradeParams(market, amount, (net * (10_000n - slippageBps)) / 10_000n);
      data = encodeFunctionData({ abi: TradeRouter.abi, functionName: 'sellExactIn', args: [params] });
      selling.add(key);
    } else {
      // Sizes spread evenly on a log scale between the smallest and largest buy.
      const ratio = Number(MAX_BUY / MIN_BUY);
      const amount = (MIN_BUY * BigInt(Math.round(ratio ** random() * 1000))) / 1000n;
      const out = await quote(wbnb, market.token, market.fee, amount - siteFeeOn(amount, settings.siteFeeBps));
      const params = tradeParams(market, amount, (out * (10_000n - slippageBps)) / 10_000n);
      data = encodeFunctionData({ abi: TradeRouter.abi, functionName: 'buyExactIn', args: [params] });
      value = amount;
    }
    const entry = await sendTracked(trader, 'trade', { to: router, data, value, gas: TRADE_GAS, tipWei: tip() });
    if (!entry) selling.delete(key);
    else if (held > 0n) entry.onDone = () => selling.delete(key);
  }

  function tradeParams(market: Market, amount: bigint, limit: bigint) {
    return {
      token: market.token,
      pair: wbnb,
      fee: market.fee,
      amount,
      limit,
      referrer: zeroAddress,
      deadline: now + 600n,
    } as const;
  }

  /** Swaps a price that strayed from the pool's recent average back toward it, one fee short of it. */
  async function arbitrage(market: Market): Promise<void> {
    if (!arbitrageur || market.arbPending || closing) return;
    const window = market.ticks.slice(0, -1).slice(-ARB_WINDOW);
    const tick = market.ticks.at(-1);
    if (tick === undefined || window.length < ARB_MIN_SAMPLES) return;
    const average = Math.round(window.reduce((sum, t) => sum + t, 0) / window.length);
    // A swap pays the pool's fee (100 pips is about one tick): worth it only past twice that.
    const feeTicks = Math.ceil(market.fee / 100);
    const threshold = Math.max(2 * feeTicks, 10);
    const off = tick - average;
    if (Math.abs(off) <= threshold) return;
    const zeroForOne = off > 0;
    const tokenIn = zeroForOne === market.tokenIs0 ? market.token : wbnb;
    const tokenOut = tokenIn === wbnb ? market.token : wbnb;
    const amountIn = tokenIn === wbnb ? ARB_MAX_IN : await balanceOf(market.token, arbitrageur.address).catch(() => 0n);
    if (amountIn === 0n) return;
    const target = average + (zeroForOne ? feeTicks : -feeTicks);
    market.arbPending = true;
    const entry = await sendTracked(arbitrageur, 'arb', {
      to: swapRouter,
      data: encodeFunctionData({
        abi: SwapRouter.abi,
        functionName: 'exactInputSingle',
        args: [
          {
            tokenIn,
            tokenOut,
            fee: market.fee,
            recipient: arbitrageur.address,
            deadline: now + 300n,
            amountIn,
            amountOutMinimum: 0n,
            sqrtPriceLimitX96: getSqrtRatioAtTick(target),
          },
        ],
      }),
      gas: SWAP_GAS,
      tipWei: parseGwei('0.2'),
    });
    if (!entry) market.arbPending = false;
    else {
      entry.onDone = () => {
        market.arbPending = false;
      };
      log(`traffic: arbitrage on ${market.token}: tick ${tick}, average ${average}, back toward ${target}`);
    }
  }

  async function onBlock(number: bigint): Promise<void> {
    const block = await node.call<{ transactions: Hex[]; timestamp: Hex }>('eth_getBlockByNumber', [
      `0x${number.toString(16)}`,
      false,
    ]);
    now = BigInt(block.timestamp);
    // Blocks count from the first pool traded on: before it there is nothing to trade.
    if (markets.size > 0) counts.blocksSeen++;
    await Promise.all(
      block.transactions.map(async (hash) => {
        const entry = inFlight.get(hash);
        if (!entry) return;
        inFlight.delete(hash);
        const receipt = await node.client.getTransactionReceipt({ hash });
        if (receipt.status === 'success') {
          counts.mined++;
          if (entry.kind === 'arb') counts.arbitrages++;
        } else {
          counts.failed++;
          log(`traffic: ${entry.kind === 'arb' ? 'an arbitrage' : 'a trade'} reverted: ${hash}`);
        }
        entry.onDone?.();
      }),
    );
    const all = [...markets.values()];
    if (all.length > 0) {
      const logs = await node.call<unknown[]>('eth_getLogs', [
        {
          fromBlock: `0x${number.toString(16)}`,
          toBlock: `0x${number.toString(16)}`,
          address: all.map((m) => m.pool),
          topics: [SWAP_TOPIC],
        },
      ]);
      if (logs.length > 0) counts.blocksWithTrades++;
      await Promise.all(
        all.map(async (market) => {
          const slot0 = await node.client.readContract({
            address: market.pool,
            abi: PancakeV3Pool.abi,
            functionName: 'slot0',
            blockNumber: number,
          });
          market.ticks.push(slot0[1]);
          if (market.ticks.length > ARB_WINDOW + 1) market.ticks.shift();
        }),
      );
      for (const market of all) await arbitrage(market);
    }
    // What left the mempool unmined (replaced, or dropped) counts as failed.
    for (const [hash, entry] of inFlight) {
      if (number - entry.sentAt < DROP_AFTER_BLOCKS) continue;
      if (await node.call('eth_getTransactionByHash', [hash])) continue;
      inFlight.delete(hash);
      counts.failed++;
      entry.onDone?.();
    }
  }

  const following = (async () => {
    while (!stopped) {
      try {
        const latest = await node.client.getBlockNumber();
        while (head < latest) {
          head++;
          await onBlock(head);
        }
      } catch (error) {
        log(`traffic: could not follow the chain: ${reason(error)}`);
      }
      await sleep(100);
    }
  })();

  let launchesAfter: number | null = null;
  const discovering = async () => {
    if (stopped || options.tokens) return;
    try {
      const query = launchesAfter === null ? '?limit=200' : `?after=${launchesAfter}&limit=200`;
      const response = await fetch(`${options.apiUrl}/launches${query}`);
      const answer = (await response.json()) as { launches: { token: Address }[]; next: number | null };
      if (!response.ok) throw new Error(`GET /launches answered ${response.status}`);
      for (const launch of [...answer.launches].reverse()) await addToken(launch.token);
      // The cursor moves only once every launch of the page is being traded, so a failed one is tried again.
      if (answer.next !== null) launchesAfter = answer.next;
    } catch (error) {
      log(`traffic: could not list launches: ${reason(error)}`);
    }
    later(2_000, () => void discovering());
  };
  if (options.tokens) for (const token of options.tokens) await addToken(token);
  else await discovering();

  const scheduleTrade = () => {
    if (stopped) return;
    // Arrivals at random (a Poisson process) at the asked rate.
    const wait = (-Math.log(1 - random()) * 1000) / options.tps;
    later(wait, () => {
      tradeOnce().catch((error) => log(`traffic: a trade could not be made: ${reason(error)}`));
      scheduleTrade();
    });
  };
  scheduleTrade();
  const status = () =>
    `traffic: ${counts.sent} sent, ${counts.mined} mined, ${counts.failed} failed, ${counts.arbitrages} arbitrages, ` +
    `trades in ${counts.blocksWithTrades} of ${counts.blocksSeen} blocks`;
  const ticker = setInterval(() => log(status()), 5_000);

  return {
    report: () => ({ ...counts }),
    async stop() {
      closing = true;
      clearInterval(ticker);
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      // What was sent gets a couple of blocks to land before the count is closed.
      const until = Date.now() + 3_000;
      while (inFlight.size > 0 && Date.now() < until) await sleep(100);
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      await following;
      log(status());
      return { ...counts };
    },
  };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const known = new Set(['tps', 'tokens', 'url', 'seed', 'no-arbitrage', 'traders', 'arbitrageur', 'json', 'duration']);
  for (const name of args.keys()) if (!known.has(name)) throw new Error(`unknown option --${name}`);
  const { rpcUrl, apiUrl } = rehearsalUrls(args.get('url') ?? 'http://127.0.0.1:8787');
  const json = args.has('json');
  const tokens = args
    .get('tokens')
    ?.split(',')
    .map((t) => t.trim())
    .filter(Boolean) as Address[] | undefined;
  for (const token of tokens ?? []) if (!/^0x[0-9a-fA-F]{40}$/.test(token)) throw new Error(`not an address: ${token}`);
  const traders = args.get('traders')?.split(',').flatMap(indexRange);
  const traffic = await startTraffic({
    rpcUrl,
    apiUrl,
    tps: Number(args.get('tps') ?? '2'),
    ...(tokens ? { tokens } : {}),
    ...(traders ? { traders } : {}),
    arbitrageur: args.has('no-arbitrage') ? null : Number(args.get('arbitrageur') ?? DEFAULT_ARBITRAGEUR),
    ...(args.has('seed') ? { seed: Number(args.get('seed')) } : {}),
    log: (line) => console.log(json ? JSON.stringify({ log: line }) : line),
  });
  console.log(json ? JSON.stringify({ ready: { rpcUrl, apiUrl } }) : `traffic: running against ${rpcUrl}`);
  let finishing = false;
  const finish = async () => {
    if (finishing) return;
    finishing = true;
    const report = await traffic.stop();
    const summary = `traffic summary: ${report.sent} sent, ${report.mined} mined, ${report.failed} failed, ${report.arbitrages} arbitrages, trades in ${report.blocksWithTrades} of ${report.blocksSeen} blocks`;
    console.log(json ? JSON.stringify({ trafficReport: report }) : summary);
    process.exit(0);
  };
  process.on('SIGINT', () => void finish());
  process.on('SIGTERM', () => void finish());
  const duration = Number(args.get('duration') ?? '0');
  if (duration > 0) setTimeout(() => void finish(), duration * 1000);
}

/** "13-17" or "13" as account indexes. */
function indexRange(text: string): number[] {
  const [from, to = from] = text.split('-').map(Number) as [number, number?];
  if (!Number.isInteger(from) || !Number.isInteger(to) || to < from) throw new Error(`not an account range: ${text}`);
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    console.error(`traffic: ${reason(error)}`);
    process.exit(1);
  });
}
