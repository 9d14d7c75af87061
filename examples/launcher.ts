/**
 * A launcher: uploads a logo, builds a launch through the API, checks the build against what it asked, signs it with
 * its own key, sends it, waits for the service to list the new token and prints it.
 * `npm run bot:launcher -- --name "Cat Coin" --symbol CAT --market-cap 30 --first-buy 0.1` (the app running:
 * `npm start`); `--help` says every option.
 */
import { readFile } from 'node:fs/promises';
import { CompanionError, dataOrThrow } from '../clients/ts/src/index';
import { connectBot, gweiToWei, readable, readOptions, runMain, usageError } from './botSetup';

const USAGE = `npm run bot:launcher -- --name NAME --symbol SYMBOL [options]

  --name NAME         the token's name (up to 64 bytes)
  --symbol SYMBOL     its symbol (up to 32 bytes)
  --market-cap M      the opening market cap in the pair currency (default 30)
  --pair P            BNB (default), a listed symbol, or a BEP-20 address
  --first-buy A       buy this much of it inside the launch transaction (pair currency; default none)
  --image FILE        a PNG, JPG, GIF or WebP logo (default: a one-pixel PNG)
  --description TEXT  shown on the token's page
  --priority-gwei G   the tip per gas, in gwei (default: the node's suggestion); never under BSC's 0.05 gwei floor`;

const options = readOptions(
  {
    name: '',
    symbol: '',
    'market-cap': '30',
    pair: 'BNB',
    'first-buy': '',
    image: '',
    description: '',
    'priority-gwei': '',
  },
  USAGE,
);

/** A one-pixel PNG: a launch needs a logo, and the example needs no file to run. */
const PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const IMAGE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};
/** How long to wait for the service to list the launched token before saying so. */
const LISTING_TIMEOUT_MS = 60_000;

runMain(async (signal) => {
  if (!options.name || !options.symbol) {
    throw usageError('--name and --symbol are required', 'Name the token: --name "Cat Coin" --symbol CAT');
  }
  const bot = await connectBot(11);
  const wallet = bot.account.address;
  const image = await uploadImage(bot.baseUrl, options.image);
  const body = {
    wallet,
    name: options.name,
    symbol: options.symbol,
    marketCapPair: options['market-cap'],
    pair: options.pair,
    image,
    ...(options['first-buy'] ? { firstBuy: options['first-buy'] } : {}),
    ...(options.description ? { description: options.description } : {}),
  };
  const priority = options['priority-gwei'];
  const sent = await bot.companion.sendLaunch(body, {
    walletClient: bot.walletClient,
    publicClient: bot.publicClient,
    ...(priority ? { priorityFeeWei: gweiToWei(priority, '--priority-gwei') } : {}),
  });
  const { token, firstBuy } = sent.build;
  console.log(
    `launched ${options.symbol} ${token} in tx ${sent.hash} (block ${sent.receipt.blockNumber})` +
      (firstBuy ? `, first buy ${readable(firstBuy.spend.amount)} ${sent.build.pair.symbol}` : ''),
  );
  // The service lists a launch once its indexer has it: wait for that, as a person would wait for the page.
  const deadline = Date.now() + LISTING_TIMEOUT_MS;
  for (;;) {
    try {
      const listed = await dataOrThrow(
        bot.companion.api.GET('/tokens/{address}', { params: { path: { address: token } } }),
      );
      console.log(`listed ${listed.symbol} ${listed.address}: creator ${listed.creator}, pool ${listed.pool}`);
      return;
    } catch (error) {
      if (!(error instanceof CompanionError) || (error.code !== 'NOT_FOUND' && !error.retry)) throw error;
      if (Date.now() > deadline || signal.aborted) {
        console.log(
          `not listed yet: the launch is in tx ${sent.hash}; the service lists it once its block is confirmed`,
        );
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
});

/** Uploads the logo (the file given, or a one-pixel PNG) to the service: POST /media/image answers its URL. */
async function uploadImage(baseUrl: string, path: string): Promise<string> {
  const extension = path.split('.').pop()?.toLowerCase() ?? '';
  const type = path ? IMAGE_TYPES[extension] : 'image/png';
  if (!type)
    throw usageError(`--image ${path} is not a PNG, JPG, GIF or WebP file`, 'Give a .png, .jpg, .gif or .webp file.');
  const bytes = path ? await readFile(path) : PIXEL_PNG;
  const response = await fetch(`${baseUrl}/media/image`, {
    method: 'POST',
    headers: { 'content-type': type },
    body: bytes,
  });
  const answer = (await response.json()) as {
    uri?: string;
    url?: string;
    error?: { code: string; message: string; fix?: string };
  };
  if (!response.ok || !answer.uri) {
    throw Object.assign(new Error(answer.error?.message ?? `the image upload answered ${response.status}`), {
      code: answer.error?.code,
      fix: answer.error?.fix,
    });
  }
  return answer.uri;
}
