/**
 * A bot that does not sign: it prepares a buy for a person's wallet, which waits on the app's Requests page until the
 * person reviews it and signs on their Ledger (or rejects it), and reports the outcome.
 * `npm run bot:prepared -- --wallet 0x… --token 0x… --amount 0.1` with COMPANION_API_KEY set to a key the person
 * made in the app (API keys). On the devnet, without a key, the bot makes one for its own test account.
 */
import { createCompanion } from '../clients/ts/src/index';
import { type Bot, connectBot, DEVNET_CHAIN_ID, readOptions, runMain } from './botSetup';

const options = readOptions({
  /** The person's wallet: the request is theirs to sign. */
  wallet: '',
  token: '',
  side: 'buy',
  /** Pair currency to spend (a buy) or tokens to sell. */
  amount: '0.1',
});

runMain(async (signal) => {
  const bot = await connectBot(14);
  const apiKey = process.env.COMPANION_API_KEY || (await devnetKey(bot));
  const companion = createCompanion({ baseUrl: bot.baseUrl, apiKey });
  if (!options.wallet || !options.token) {
    throw Object.assign(new Error('--wallet and --token are required'), {
      fix: 'Name the wallet to sign and the token: --wallet 0x… --token 0x…',
    });
  }
  const kind = options.side === 'sell' ? 'prepare_sell' : 'prepare_buy';
  const intent = await companion.createIntent({
    kind,
    wallet: options.wallet,
    token: options.token,
    amount: options.amount,
  });
  console.log(`prepared ${intent.id}: ${options.side} ${options.amount} of ${options.token} for ${options.wallet}`);
  console.log('waiting for the person to review it in the app (Requests) …');
  const settled = await companion.waitForIntent(intent.id, { signal });
  if (settled.state === 'confirmed') {
    console.log(`confirmed ${intent.id}: tx ${settled.tx?.hash} (block ${settled.tx?.block})`);
  } else {
    console.log(`failed ${intent.id}: ${settled.reason ?? 'no reason given'}`);
  }
});

/** On the devnet only: a key of the bot's own test account, made by signing the key challenge as the app does. */
async function devnetKey(bot: Bot): Promise<string> {
  if (bot.settings.chainId !== DEVNET_CHAIN_ID) {
    throw Object.assign(new Error('COMPANION_API_KEY is not set'), {
      fix: 'Make a key in the app (API keys) for the wallet the requests are for, and set COMPANION_API_KEY to it.',
    });
  }
  const address = bot.account.address;
  const challenge = await bot.companion.api.GET('/keys/challenge', { params: { query: { address } } });
  if (!challenge.data) throw new Error('the key challenge was refused');
  const signature = await bot.walletClient.signMessage({ message: challenge.data.message });
  const created = await bot.companion.api.POST('/keys', {
    body: { nonce: challenge.data.nonce, signature, label: 'prepared-request example' },
  });
  if (!created.data) throw new Error(`no key: ${JSON.stringify(created.error)}`);
  console.log(`made API key ${created.data.id} for ${address} (devnet)`);
  return created.data.key;
}
