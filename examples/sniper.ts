/**
 * A sniper: hears each new launch on the app's event stream, builds a buy of it at once, checks the build against
 * what it asked, signs it with its own key, sends it and says what it got. Launches are bought concurrently: a buy
 * waiting for its block never holds up the next launch. `npm run bot:sniper -- --amount 0.05 --max-buys 3` (the app
 * running: `npm start`); `--help` says every option.
 */
import { CompanionError, isConfirmed, type LaunchEvent } from '../clients/ts/src/index';
import { connectBot, DEVNET_CHAIN_ID, gweiToWei, readable, readOptions, runMain, usageError } from './botSetup';

const USAGE = `npm run bot:sniper -- [options]

  --amount A          BNB (or the pair currency) to spend on each launch (default 0.05)
  --max-buys N        stop after N buys (N >= 1), or "unlimited" to run until stopped. Default: unlimited on the
                      devnet, 1 anywhere else, so a bot pointed at real money buys at most once unless told more
  --slippage-bps S    the price may move this much against a buy before it reverts (100 = 1%; default 500)
  --priority-gwei G   the tip per gas, in gwei (default: the node's suggestion); never under BSC's 0.05 gwei floor
  --events E          "head" (default): buy a launch as soon as the service sees its block at the chain's head;
                      "confirmed": only once its block is confirmed (?confirmed=only)

Ctrl-C or SIGTERM stops listening, lets the buys already sent finish, and exits 0.`;

const options = readOptions(
  { amount: '0.05', 'max-buys': '', 'slippage-bps': '500', 'priority-gwei': '', events: 'head' },
  USAGE,
);

/** How many buys the sniper may make: a count, or null for no limit. */
function maxBuysOf(option: string, devnet: boolean): number | null {
  if (option === '') return devnet ? null : 1;
  if (option === 'unlimited') return null;
  if (!/^\d+$/.test(option) || Number(option) < 1) {
    throw usageError(
      `--max-buys ${option} is not a number of buys`,
      'Give a whole number of buys of at least 1 (--max-buys 3), or --max-buys unlimited to run until stopped.',
    );
  }
  return Number(option);
}

runMain(async (signal) => {
  const bot = await connectBot(12);
  const wallet = bot.account.address;
  const maxBuys = maxBuysOf(options['max-buys'], bot.settings.chainId === DEVNET_CHAIN_ID);
  if (options.events !== 'head' && options.events !== 'confirmed') {
    throw usageError(
      `--events ${options.events} is neither head nor confirmed`,
      'Give --events head or --events confirmed.',
    );
  }
  const priorityFeeWei = options['priority-gwei'] ? gweiToWei(options['priority-gwei'], '--priority-gwei') : undefined;
  console.log(
    `sniper ${wallet} on ${bot.settings.network}: buying ${options.amount} of each new launch, ` +
      `${maxBuys === null ? 'no limit on buys' : `at most ${maxBuys} buy${maxBuys === 1 ? '' : 's'}`}`,
  );

  // Leaving the stream (enough buys, or a signal) stops new buys; the ones under way are let finish.
  const listening = new AbortController();
  const stop = () => listening.abort();
  signal.addEventListener('abort', stop, { once: true });
  /** Launches already taken up: a head event and its confirmation are one launch. */
  const seen = new Set<string>();
  const inFlight = new Set<Promise<void>>();
  /** Buys started and not failed: a slot is taken before a buy starts, so concurrency never exceeds the limit. */
  let taken = 0;
  let bought = 0;
  /** Anything but a CompanionError is a bug: it stops the sniper and fails the run, once the other buys are done. */
  let fatal: unknown;

  const buy = async (launch: LaunchEvent['data'], atHead: boolean, heardAt: number) => {
    const body = { wallet, token: launch.token, amount: options.amount, slippageBps: Number(options['slippage-bps']) };
    try {
      const sent = await bot.companion.sendBuy(body, {
        walletClient: bot.walletClient,
        publicClient: bot.publicClient,
        ...(priorityFeeWei === undefined ? {} : { priorityFeeWei }),
        onBroadcast: ({ step, hash }) => {
          if (step !== 'main') return;
          const after = (performance.now() - heardAt).toFixed(1);
          console.log(
            `sent buy of ${launch.symbol} ${launch.token} in tx ${hash}, ${after} ms after the launch was heard`,
          );
        },
      });
      const { pay, receive, limit } = sent.build;
      bought++;
      console.log(
        `bought ${launch.symbol} ${launch.token}: ${readable(receive.amount)} ${receive.symbol} ` +
          `(at least ${readable(limit.amount, 'floor')}) for ${readable(pay.amount)} ${pay.symbol} ` +
          `in tx ${sent.hash} (block ${sent.receipt.blockNumber}${atHead ? ', seen at the head' : ''})`,
      );
    } catch (error) {
      taken--;
      if (!(error instanceof CompanionError)) {
        fatal ??= error;
        stop();
        return;
      }
      // One launch that cannot be bought (too thin, paused, a revert, a build that is not what was asked) is
      // skipped; the stream goes on.
      console.log(`skipped ${launch.symbol} ${launch.token}: ${error.code}: ${error.message}`);
    }
    if (maxBuys !== null && bought >= maxBuys) stop();
  };

  let started = false;
  const events = bot.companion.events({
    types: ['launch', 'block', 'retract'],
    signal: listening.signal,
    ...(options.events === 'confirmed' ? { confirmed: 'only' as const } : {}),
  });
  for await (const event of events) {
    if (event.event === 'block') {
      if (!started) console.log(`listening from block ${event.data.block}`);
      started = true;
      continue;
    }
    if (event.event === 'retract') {
      // A head launch it bought may be gone with its block: a buy of it reverts or fails its build, and is skipped.
      console.log(`the chain dropped what came after block ${event.data.block} (${event.data.reason})`);
      continue;
    }
    const heardAt = performance.now();
    const launch = event.data;
    if (launch.creator === wallet || seen.has(launch.token.toLowerCase())) continue;
    if (maxBuys !== null && taken >= maxBuys) continue;
    seen.add(launch.token.toLowerCase());
    taken++;
    const work = buy(launch, !isConfirmed(event), heardAt);
    inFlight.add(work);
    work.finally(() => inFlight.delete(work));
  }
  if (inFlight.size > 0)
    console.log(`stopping: waiting for ${inFlight.size} buy${inFlight.size === 1 ? '' : 's'} under way`);
  await Promise.all(inFlight);
  if (fatal !== undefined) throw fatal;
  console.log(`stopped after ${bought} buy${bought === 1 ? '' : 's'}`);
});
