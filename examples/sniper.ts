/**
 * A sniper: hears each new launch on the app's event stream, builds a buy of it at once, signs it with its own key,
 * sends it and says what it got. `npm run bot:sniper -- --amount 0.05 --max-buys 3` (the app running: `npm start`).
 */
import { CompanionError, sendBuild } from '../clients/ts/src/index';
import { connectBot, readable, readOptions, runMain } from './botSetup';

const options = readOptions({
  /** BNB (or the pair currency) to spend on each launch. */
  amount: '0.05',
  /** Stop after this many buys; 0 runs until stopped. */
  'max-buys': '0',
  /** The price may move this much against the buy before it reverts (100 = 1%). */
  'slippage-bps': '500',
});

runMain(async (signal) => {
  const bot = await connectBot(12);
  const wallet = bot.account.address;
  const maxBuys = Number(options['max-buys']);
  console.log(`sniper ${wallet} on ${bot.settings.network}: buying ${options.amount} of each new launch`);
  let buys = 0;
  let listening = false;
  for await (const event of bot.companion.events({ types: ['launch', 'block'], signal })) {
    if (event.event === 'block') {
      if (!listening) console.log(`listening from block ${event.data.block}`);
      listening = true;
      continue;
    }
    const launch = event.data;
    if (launch.creator === wallet) continue;
    const body = { wallet, token: launch.token, amount: options.amount, slippageBps: Number(options['slippage-bps']) };
    try {
      const build = await bot.companion.buildBuy(body);
      const { walletClient, publicClient } = bot;
      const sent = await sendBuild(build, { walletClient, publicClient, rebuild: () => bot.companion.buildBuy(body) });
      const { pay, receive } = sent.build;
      console.log(
        `bought ${launch.symbol} ${launch.token}: ${readable(receive.amount)} ${receive.symbol} ` +
          `(at least ${readable(sent.build.limit.amount, 'floor')}) for ${readable(pay.amount)} ${pay.symbol} ` +
          `in tx ${sent.hash} (block ${sent.receipt.blockNumber})`,
      );
    } catch (error) {
      // One launch that cannot be bought (too thin, paused, a revert) is skipped; the stream goes on.
      if (!(error instanceof CompanionError)) throw error;
      console.log(`skipped ${launch.symbol} ${launch.token}: ${error.code}: ${error.message}`);
      continue;
    }
    if (maxBuys > 0 && ++buys >= maxBuys) break;
  }
});
