import { performance } from 'node:perf_hooks';
import { type Address, createWalletClient, type http, type PublicClient, parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { ChainContext } from '../src-main/chain/connectChain';
import { testAccounts } from '../src-main/chain/devnet/testAccounts';
import { NonfungiblePositionManager, QuoterV2, WETH9 } from '../src-main/chain/generated/vendor';
import { devnetChain } from '../src-main/chain/networks';
import { PoolStateService } from '../src-main/services/poolStateService';
import { QuoteService } from '../src-main/services/quoteService';
import { SettingsService } from '../src-main/services/settingsService';
import { TokenRegistry } from '../src-main/services/tokenRegistry';
import { launcher } from '../test/support/launcher';
import { routerDriver } from '../test/support/routerDriver';
import type { Benchmark, Row } from './benchmark';
import { type BenchServer, withServer } from './server';
import { percentile } from './stats';

const NEAR_QUOTE_P50 = 'in-process quote p50 (1 BNB buy)';
/** Rounds of the in-process quote loop, each a near and a far quote. */
const QUOTE_ROUNDS = 20_000;

/** Extra positions laid below the price, so quotes that go far cross many initialized ticks. */
const EXTRA_POSITIONS = 60;

/**
 * Issue 4's figures, against the real headless server in its own process (rate limits off), on a launched token
 * whose pool has ~120 initialized ticks: in-process quote latency, HTTP /quote throughput and latency under load,
 * build latency with simulation, and the on-chain quoter's eth_call for the same quote, for the ratio.
 */
export const tradingBench: Benchmark = {
  id: 'trading',
  run: () => withServer('bench-trading', measure),
};

async function measure({ url, transport, client }: BenchServer): Promise<Row[]> {
  const settings = (await (await fetch(`${url}/settings`)).json()) as { contracts: Record<string, Address> };
  const c = settings.contracts as Record<string, Address>;
  const l = launcher(
    { accounts: testAccounts(), contracts: { factory: c.factory as Address, wbnb: c.wbnb as Address }, transport },
    client,
  );
  const launched = await l.launch({
    creator: 2,
    saltSeed: 'bench',
    tokenIs0: true,
    shape: [
      { width: 4000, bps: 2500 },
      { width: 8000, bps: 2500 },
      { width: 16000, bps: 2500 },
      { width: 0, bps: 2500 },
    ],
    firstBuy: parseEther('5'),
  });
  if (launched.result !== 'ok' || !launched.pool) throw new Error(`bench launch failed: ${launched.result}`);
  const token = launched.token;
  await layBids(transport, client, c, token, launched.params.openingTick);
  const d = routerDriver(
    {
      accounts: testAccounts(),
      contracts: { router: c.router as Address, quoter: c.quoter as Address, permit2: c.permit2 as Address },
      transport,
    },
    client,
  );
  await d.trade(
    4,
    'buyExactIn',
    d.params({ token, pair: c.wbnb as Address, pool: launched.pool }, parseEther('20'), 0n),
    parseEther('20'),
  );

  const rows: Row[] = [];
  rows.push(...(await inProcessQuotes(client, c, token)));
  // GET /quote's throughput over HTTP is quote-vs-bare's: the server in a process of its own, the load from autocannon.

  const wallet = testAccounts()[7]?.address;
  const buildTimes: number[] = [];
  for (let i = 0; i < 200; i++) {
    const started = performance.now();
    const answer = await fetch(`${url}/build/buy`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ wallet, token, amount: '0.1' }),
    });
    await answer.json();
    if (answer.status !== 200) throw new Error(`build answered ${answer.status}`);
    buildTimes.push(performance.now() - started);
  }
  rows.push(
    {
      name: 'POST /build/buy with simulation, p50',
      value: round(percentile(buildTimes, 50)),
      unit: 'ms',
      target: { op: '<', value: 15 },
    },
    { name: 'POST /build/buy with simulation, p99', value: round(percentile(buildTimes, 99)), unit: 'ms' },
  );

  const quoterTimes: number[] = [];
  for (let i = 0; i < 300; i++) {
    const started = performance.now();
    await client.simulateContract({
      address: c.quoter as Address,
      abi: QuoterV2.abi,
      functionName: 'quoteExactInputSingle',
      args: [
        {
          tokenIn: c.wbnb as Address,
          tokenOut: token,
          amountIn: parseEther('0.99'),
          fee: 10000,
          sqrtPriceLimitX96: 0n,
        },
      ],
    });
    quoterTimes.push(performance.now() - started);
  }
  const quoterP50 = percentile(quoterTimes, 50);
  rows.push({ name: 'on-chain QuoterV2 eth_call, same quote, p50', value: round(quoterP50), unit: 'ms' });
  const inProcessP50 = rows.find((r) => r.name === NEAR_QUOTE_P50)?.value;
  if (inProcessP50) {
    rows.push({
      name: 'on-chain quoter p50 / in-process quote p50',
      value: Math.round((quoterP50 * 1000) / inProcessP50),
      unit: 'x',
    });
  }
  return rows;
}

/** The quote engine alone: QuoteService on a cached pool state, as the server runs it between blocks. */
async function inProcessQuotes(client: PublicClient, c: Record<string, Address>, token: Address): Promise<Row[]> {
  const chain = {
    network: 'devnet',
    chainId: 31337,
    client,
    addresses: c,
    deployBlock: 0n,
    onBlock: () => () => {},
    // As connectChain does over RPC: the reads go straight to the chain, which only this benchmark moves.
    consistentRead: <T>(work: () => Promise<T>) => work(),
    close: async () => {},
  } as unknown as ChainContext;
  const settings = new SettingsService(chain);
  const quotes = new QuoteService(new PoolStateService(chain), settings);
  const facts = await new TokenRegistry(chain).get(token);
  const request = {
    token: facts,
    side: 'buy' as const,
    exact: 'in' as const,
    amount: parseEther('1'),
    slippageBps: 50,
  };
  const far = { ...request, amount: parseEther('400') };
  await quotes.quote(request);
  const times: number[] = [];
  const farTimes: number[] = [];
  const loopStarted = performance.now();
  for (let i = 0; i < QUOTE_ROUNDS; i++) {
    let started = performance.now();
    await quotes.quote(request);
    times.push((performance.now() - started) * 1000);
    started = performance.now();
    await quotes.quote(far);
    farTimes.push((performance.now() - started) * 1000);
  }
  const loopSeconds = (performance.now() - loopStarted) / 1000;
  return [
    // Both quotes of every round, timing included: one event loop's worth, as the server answers them.
    {
      name: 'in-process quotes per second (1 and 400 BNB alternating)',
      value: (2 * QUOTE_ROUNDS) / loopSeconds,
      unit: 'quotes/s',
    },
    {
      name: NEAR_QUOTE_P50,
      value: round(percentile(times, 50)),
      unit: 'µs',
      target: { op: '<', value: 50 },
    },
    { name: 'in-process quote p99 (1 BNB buy)', value: round(percentile(times, 99)), unit: 'µs' },
    {
      name: 'in-process quote p50 (400 BNB, many ticks crossed)',
      value: round(percentile(farTimes, 50)),
      unit: 'µs',
      target: { op: '<', value: 50 },
    },
    { name: 'in-process quote p99 (400 BNB, many ticks crossed)', value: round(percentile(farTimes, 99)), unit: 'µs' },
  ];
}

/** Lays WBNB-only positions at random ranges below the price, so the pool has many initialized ticks. */
async function layBids(
  transport: ReturnType<typeof http>,
  client: PublicClient,
  c: Record<string, Address>,
  token: Address,
  openingTick: number,
) {
  const account = privateKeyToAccount(testAccounts()[11]?.privateKey ?? '0x');
  const wallet = createWalletClient({ account, chain: devnetChain, transport });
  const wbnb = c.wbnb as Address;
  const manager = c.positionManager as Address;
  const send = async (request: Parameters<typeof wallet.writeContract>[0]) =>
    client.waitForTransactionReceipt({ hash: await wallet.writeContract(request) });
  await send({
    address: wbnb,
    abi: WETH9.abi,
    functionName: 'deposit',
    value: parseEther('600'),
    chain: devnetChain,
    account,
  } as never);
  await send({
    address: wbnb,
    abi: WETH9.abi,
    functionName: 'approve',
    args: [manager, 2n ** 256n - 1n],
    chain: devnetChain,
    account,
  } as never);
  let seed = 7;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed;
  };
  for (let i = 0; i < EXTRA_POSITIONS; i++) {
    const upper = openingTick - 200 * (1 + (next() % 60));
    const lower = upper - 200 * (1 + (next() % 40));
    await send({
      address: manager,
      abi: NonfungiblePositionManager.abi,
      functionName: 'mint',
      args: [
        {
          token0: token,
          token1: wbnb,
          fee: 10000,
          tickLower: lower,
          tickUpper: upper,
          amount0Desired: 0n,
          amount1Desired: parseEther('5'),
          amount0Min: 0n,
          amount1Min: 0n,
          recipient: account.address,
          deadline: 2n ** 40n,
        },
      ],
      chain: devnetChain,
      account,
    } as never);
  }
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
