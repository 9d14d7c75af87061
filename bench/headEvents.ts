import { performance } from 'node:perf_hooks';
import {
  type Address,
  createPublicClient,
  custom,
  encodeFunctionData,
  type Hex,
  type PublicClient,
  parseEther,
  parseGwei,
} from 'viem';
import { seededRandom } from '../scripts/rehearsal/rpcWallet';
import { LaunchFactory } from '../src-main/chain/generated/contracts';
import { devnetChain } from '../src-main/chain/networks';
import { launcher } from '../test/support/launcher';
import { openSse, type SseConnection, type SseEvent } from '../test/support/sseReader';
import type { Benchmark, Row } from './benchmark';
import { BSC_BLOCK_MS, buyCall, LocalSigner, rpcEndpoint, startAtBscCadence, TIP_WEI } from './cadenceTraffic';
import { deadlineFor } from './deadline';
import { BURST, SNIPED, SNIPER_ACCOUNT, sniperFigures } from './sniperAtHead';
import { max, percentile } from './stats';
import { withTempDir } from './tempDir';

/** BSC's block time, and the confirmations the service waits for there. */
const BLOCK_MS = BSC_BLOCK_MS;
const CONFIRMATIONS = 3;
/** Launches measured, after a few that warm the service and the stream up. */
const LAUNCHES = 20;
const WARM_UP = 3;
/** A launch is sent this long after a block is made (at random within it), well before the next block. */
const LAUNCH_SEND_MS = [100, 400] as const;
/** Background buys per block, each sent at a random moment in this first part of the block. */
const BUYS_PER_BLOCK = 5;
const BUY_SEND_WINDOW_MS = 600;
/** Test accounts: creators of the measured launches, and the traders of the background traffic. */
const CREATORS = [2, 3, 4, 5, 6, 7, 8, 9] as const;
/** 12 is left out: the example sniper signs with it (SNIPER_ACCOUNT). */
const TRADERS = [10, 11, 13, 14, 15, 16, 17, 18] as const;

/**
 * Issue 29's figure: at BSC's cadence (a block every 750 ms) with the 3 confirmations the service waits for there,
 * and background buys in every block, how soon after a block is produced (the devnet's own moment, in this process)
 * a GET /events subscriber over loopback HTTP has the launch the block holds, as a head event (`confirmed: false`).
 * Beside it, the same on `?confirmed=only` (the stream before head events), how many blocks later the block event
 * confirming each launch comes, and whether any launch reached the default stream twice.
 */
export const headEventsBench: Benchmark = {
  id: 'head-events',
  run: () => withTempDir('bench-head-events', measure),
};

interface Heard {
  block: number;
  at: number;
  confirmed: boolean;
}

/** Each stream's launches by token (every arrival), and the block events it had. */
class Subscriber {
  readonly launches = new Map<string, Heard[]>();
  readonly blockEvents: { block: number; at: number }[] = [];
  private readonly waiters = new Map<string, () => void>();
  connection: SseConnection | undefined;

  onEvent = (event: SseEvent) => {
    const at = performance.now();
    const data = JSON.parse(event.data) as { token?: string; block: number; confirmed?: boolean };
    if (event.event === 'block') this.blockEvents.push({ block: data.block, at });
    if (event.event !== 'launch' || !data.token) return;
    const key = data.token.toLowerCase();
    const arrivals = this.launches.get(key) ?? [];
    arrivals.push({ block: data.block, at, confirmed: data.confirmed !== false });
    this.launches.set(key, arrivals);
    this.waiters.get(key)?.();
  };

  /** The first arrival of `token`'s launch. */
  heard(token: Address): Promise<Heard> {
    const key = token.toLowerCase();
    return new Promise((resolve) => {
      const done = () => {
        this.waiters.delete(key);
        resolve((this.launches.get(key) as Heard[])[0] as Heard);
      };
      if (this.launches.has(key)) done();
      else this.waiters.set(key, done);
    });
  }
}

async function measure(dataDir: string): Promise<Row[]> {
  const { service, devnet } = await startAtBscCadence(dataDir, CONFIRMATIONS);
  const made = new Map<number, number>();
  const blockWaiters = new Set<(block: number) => void>();
  const unsubscribe = service.chain.onBlock((number) => {
    made.set(Number(number), performance.now());
    for (const waiter of [...blockWaiters]) waiter(Number(number));
  });
  const nextBlock = () =>
    new Promise<number>((resolve) => {
      const waiter = (block: number) => {
        blockWaiters.delete(waiter);
        resolve(block);
      };
      blockWaiters.add(waiter);
    });
  const atHead = new Subscriber();
  const confirmedOnly = new Subscriber();
  let stopTraffic = false;
  try {
    atHead.connection = await openSse(`${service.url}/events?types=launch,block`, {}, atHead.onEvent);
    confirmedOnly.connection = await openSse(
      `${service.url}/events?types=launch,block&confirmed=only`,
      {},
      confirmedOnly.onEvent,
    );
    if (!atHead.connection.response.ok || !confirmedOnly.connection.response.ok) {
      throw new Error('GET /events did not open');
    }
    const rpc = rpcEndpoint(`${service.origin}/rpc`);
    const reads = createPublicClient({ chain: devnetChain, transport: custom(devnet.provider) }) as PublicClient;
    const signer = (index: number) => {
      const account = devnet.accounts[index];
      if (!account) throw new Error(`no test account ${index}`);
      return new LocalSigner(account.privateKey, devnet.chainId);
    };
    const creators = CREATORS.map(signer);
    const traders = TRADERS.map(signer);
    await Promise.all([...creators, ...traders].map((one) => one.sync(rpc)));
    const random = seededRandom(29);
    const fee = (await reads.getBlock({ blockTag: 'latest' })).baseFeePerGas ?? 0n;
    const maxFee = fee * 4n + parseGwei('1') + TIP_WEI;

    const plans = launcher(devnet, reads);
    if ((TRADERS as readonly number[]).includes(SNIPER_ACCOUNT))
      throw new Error("a trader would share the sniper's key");
    const total = 1 + WARM_UP + LAUNCHES + SNIPED + BURST;
    const planned: { creator: LocalSigner; token: Address; data: Hex }[] = [];
    for (let i = 0; i < total; i++) {
      const creator = CREATORS[i % CREATORS.length] as number;
      const plan = await plans.plan({ creator, saltSeed: `head-events-${i}` });
      const data = encodeFunctionData({ abi: LaunchFactory.abi, functionName: 'launch', args: [plan.params] as never });
      planned.push({ creator: creators[i % CREATORS.length] as LocalSigner, token: plan.token, data });
    }
    const factory = devnet.contracts.factory;
    const estimate = BigInt(
      await rpc.call<Hex>('eth_estimateGas', [
        { from: planned[0]?.creator.address, to: factory, data: planned[0]?.data },
      ]),
    );
    const gas = (estimate * 13n) / 10n;
    const sendLaunch = async (launch: (typeof planned)[number]) =>
      rpc.call<Hex>('eth_sendRawTransaction', [
        await launch.creator.sign({ to: factory, data: launch.data, gas }, maxFee),
      ]);

    // The token the background traffic buys: launched first, and in a block before anything is measured.
    const traded = planned[0] as (typeof planned)[number];
    await devnet.included(await sendLaunch(traded));
    const buys: Hex[] = [];
    const refusedBuys: string[] = [];
    // Left to end by itself after the service closes (it waits for a block that never comes).
    void (async () => {
      while (!stopTraffic) {
        await nextBlock();
        const sends: Promise<unknown>[] = [];
        for (let i = 0; i < BUYS_PER_BLOCK; i++) {
          const trader = traders[Math.floor(random() * traders.length)] as LocalSigner;
          const wei = parseEther((0.005 + random() * 0.02).toFixed(6));
          const raw = await trader.sign(buyCall(devnet.contracts, traded.token, wei), maxFee);
          sends.push(
            sleep(random() * BUY_SEND_WINDOW_MS)
              .then(() => rpc.call<Hex>('eth_sendRawTransaction', [raw]))
              .then(
                (hash) => buys.push(hash),
                (error: Error) => refusedBuys.push(error.message),
              ),
          );
        }
        await Promise.all(sends);
      }
    })().catch(() => {});

    const toHead: number[] = [];
    const toConfirmed: number[] = [];
    const measured: Heard[] = [];
    for (const [i, launch] of planned.slice(1, 1 + WARM_UP + LAUNCHES).entries()) {
      await nextBlock();
      await sleep(LAUNCH_SEND_MS[0] + random() * (LAUNCH_SEND_MS[1] - LAUNCH_SEND_MS[0]));
      await sendLaunch(launch);
      const [head, confirmed] = await within(
        Promise.all([atHead.heard(launch.token), confirmedOnly.heard(launch.token)]),
        `launch ${i} reaching both subscribers`,
      );
      if (head.confirmed) throw new Error(`launch ${i} reached the default stream confirmed, not at the head`);
      const produced = made.get(head.block);
      if (produced === undefined) throw new Error(`launch ${i}: block ${head.block} was not seen produced`);
      if (i < WARM_UP) continue;
      toHead.push(head.at - produced);
      toConfirmed.push(confirmed.at - produced);
      measured.push(head);
    }
    // Then the example sniper, on the same stage and traffic, buying launches it hears at the head.
    const sniping = await sniperFigures(
      {
        url: service.url,
        reads,
        send: (index) => sendLaunch(planned[index] as (typeof planned)[number]),
        tokens: planned.map((launch) => launch.token),
        nextBlock,
        sleep,
      },
      1 + WARM_UP + LAUNCHES,
    );
    // The last launches' confirmations come in before the figures are read, and the last buys are mined.
    stopTraffic = true;
    for (let i = 0; i < CONFIRMATIONS + 2; i++) await nextBlock();
    const confirmedAfter = measured.map((head) => {
      const confirming = atHead.blockEvents.find((event) => event.block >= head.block && event.at > head.at);
      if (!confirming) throw new Error(`the launch heard in block ${head.block} was never confirmed on its stream`);
      return confirming.at - (made.get(head.block) as number);
    });
    if (refusedBuys.length > 0)
      throw new Error(`${refusedBuys.length} background buys were refused: ${refusedBuys[0]}`);
    const landed = (
      await Promise.all(buys.map((hash) => reads.getTransactionReceipt({ hash }).catch(() => null)))
    ).filter((receipt) => receipt?.status === 'success').length;
    const twice = planned.filter((launch) => (atHead.launches.get(launch.token.toLowerCase())?.length ?? 0) > 1);

    const label = `block produced -> its launch at a GET /events subscriber, ${BLOCK_MS} ms blocks, ${CONFIRMATIONS} confirmations, ${BUYS_PER_BLOCK} buys/block`;
    const n = toHead.length;
    return [
      {
        name: `${label}: head event (confirmed: false), p50 of ${n}`,
        value: ms(percentile(toHead, 50)),
        unit: 'ms',
        target: { op: '<=', value: 50 },
      },
      { name: `${label}: head event, p95`, value: ms(percentile(toHead, 95)), unit: 'ms' },
      { name: `${label}: head event, max`, value: ms(max(toHead)), unit: 'ms' },
      {
        name: `${label}: the block event confirming it on the same stream, p50 of ${confirmedAfter.length}`,
        value: ms(percentile(confirmedAfter, 50)),
        unit: 'ms',
      },
      {
        name: `${label}: with ?confirmed=only (the stream before head events), p50`,
        value: ms(percentile(toConfirmed, 50)),
        unit: 'ms',
      },
      { name: `background buys mined while measuring (of ${buys.length} sent)`, value: landed, unit: 'buys' },
      {
        name: 'launches sent twice on the default stream (head, then confirmed)',
        value: twice.length,
        unit: 'launches',
        target: { op: '=', value: 0 },
      },
      ...sniping,
    ];
  } finally {
    stopTraffic = true;
    unsubscribe();
    atHead.connection?.close();
    confirmedOnly.connection?.close();
    await within(service.close(), 'closing the service');
  }
}

const ms = (value: number) => Math.round(value * 10) / 10;
const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

const within = deadlineFor('head-events', 30_000);
