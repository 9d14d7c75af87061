/**
 * A seller with a take-profit and a stop-loss: it watches one token's trades on the app's event stream, quotes a sale
 * of the bot's whole holding after each one, and sells it all once the quote reaches the take-profit or falls to the
 * stop-loss. `npm run bot:seller -- --token 0x… --take-profit 1.5 --stop-loss 0.7` (the app running: `npm start`).
 * The levels are multiples of what the holding would fetch when the bot starts, or of `--cost` when given.
 */
import { formatUnits, parseUnits } from 'viem';
import { dataOrThrow } from '../clients/ts/src/index';
import { connectBot, readable, readOptions, runMain } from './botSetup';

const options = readOptions({
  /** The token to sell. */
  token: '',
  /** Sell once the holding would fetch this many times its cost (1.5: up 50%). */
  'take-profit': '1.5',
  /** Sell once it would fetch this many times its cost or less (0.7: down 30%). */
  'stop-loss': '0.7',
  /** What the holding cost, in the pair currency; by default what it would fetch when the bot starts. */
  cost: '',
  'slippage-bps': '300',
});

/** A multiple such as 1.5 as basis points, so the comparison stays in bigint wei. */
const bps = (multiple: string) => parseUnits(multiple, 4);

runMain(async (signal) => {
  if (!options.token) throw Object.assign(new Error('--token is required'), { fix: 'Name the token: --token 0x…' });
  const bot = await connectBot(13);
  const wallet = bot.account.address;
  const token = options.token;
  // The typed API itself, for what the helpers do not cover; dataOrThrow turns an error answer into a CompanionError.
  const balances = await dataOrThrow(bot.companion.api.GET('/balances', { params: { query: { wallet, token } } }));
  const held = balances.token;
  if (BigInt(held.wei) === 0n) throw new Error(`${wallet} holds no ${held.symbol}`);
  const sale = { token, side: 'sell' as const, amount: formatUnits(BigInt(held.wei), held.decimals) };
  const first = await bot.companion.quote(sale);
  const pairDecimals = first.token.pair.decimals;
  const cost = options.cost ? parseUnits(options.cost, pairDecimals) : BigInt(first.receive.wei);
  const takeProfit = (cost * bps(options['take-profit'])) / 10_000n;
  const stopLoss = (cost * bps(options['stop-loss'])) / 10_000n;
  console.log(
    `seller ${wallet}: ${readable(sale.amount)} ${held.symbol} would fetch ${readable(first.receive.amount)} ` +
      `${first.receive.symbol}; selling at ${readable(formatUnits(takeProfit, pairDecimals))} or more, ` +
      `or ${readable(formatUnits(stopLoss, pairDecimals))} or less`,
  );
  let listening = false;
  for await (const event of bot.companion.events({ token, types: ['trade', 'block'], signal })) {
    if (event.event === 'block') {
      if (!listening) console.log(`listening from block ${event.data.block}`);
      listening = true;
      continue;
    }
    const quote = await bot.companion.quote(sale);
    const value = BigInt(quote.receive.wei);
    const reason = value >= takeProfit ? 'take-profit' : value <= stopLoss ? 'stop-loss' : null;
    console.log(
      `after a ${event.data.side} in ${event.data.tx}: ${readable(quote.receive.amount)} ${quote.receive.symbol}`,
    );
    if (!reason) continue;
    const body = { wallet, token, amount: sale.amount, slippageBps: Number(options['slippage-bps']) };
    // Built, checked against this body (token, amount, limit, no referrer …) before signing, its approvals sent first.
    const sent = await bot.companion.sendSell(body, { walletClient: bot.walletClient, publicClient: bot.publicClient });
    for (const step of sent.steps) console.log(`step ${step.step}: tx ${step.hash}`);
    console.log(
      `sold on ${reason}: ${readable(sent.build.pay.amount)} ${sent.build.pay.symbol} for ` +
        `${readable(sent.build.receive.amount)} ${sent.build.receive.symbol} in tx ${sent.hash} ` +
        `(block ${sent.receipt.blockNumber})`,
    );
    return;
  }
});
