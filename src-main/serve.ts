/**
 * The headless entry (`npm run serve`): the chain, the API on 127.0.0.1 and, with --web, the web UI. Prints exactly
 * one line, `ready http://127.0.0.1:PORT/api/v1`, on stdout once the API answers; everything else goes to stderr.
 */
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { NETWORK_NAMES, type NetworkName } from './chain/networks';
import { startService } from './startService';
import { readAppSettings } from './store/appSettingsFile';

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

function readOptions() {
  let parsed: ReturnType<typeof parseArgs>['values'];
  try {
    parsed = parseArgs({
      options: {
        port: { type: 'string' },
        data: { type: 'string' },
        network: { type: 'string' },
        rpc: { type: 'string' },
        web: { type: 'string' },
        'rate-limit': { type: 'string' },
        confirmations: { type: 'string' },
        keys: { type: 'string' },
      },
      strict: true,
    }).values;
  } catch (error) {
    fail(
      `${(error as Error).message}\nusage: npm run serve -- [--port 8787] [--data DIR] [--network devnet|testnet|mainnet] [--rpc URL] [--web DIR] [--rate-limit on|off] [--confirmations N] [--keys on|off]`,
    );
  }
  // What the web UI's Settings screen saved applies when neither a flag nor an environment variable says otherwise.
  const settingsFile = resolve(process.env.APP_SETTINGS ?? '.data/app-settings.json');
  const { settings: saved, problem } = readAppSettings(settingsFile);
  if (problem) process.stderr.write(`${problem}\n`);
  const chosenNetwork = (parsed.network as string | undefined) ?? process.env.NETWORK ?? saved.network;
  // The saved RPC and data folder belong to the saved network: a run on another one ignores them.
  const sameNetwork = chosenNetwork === saved.network;
  const fromSaved: Record<string, string | undefined> = {
    network: saved.network,
    rpc: sameNetwork ? (saved.rpcUrl ?? undefined) : undefined,
    'rate-limit': saved.rateLimits === false ? 'off' : undefined,
  };
  const value = (flag: string, env: string) =>
    (parsed[flag] as string | undefined) ?? process.env[env] ?? fromSaved[flag];
  const portText = value('port', 'PORT') ?? '8787';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) fail(`--port must be a number from 0 to 65535, not "${portText}"`);
  const network = (value('network', 'NETWORK') ?? 'devnet') as NetworkName;
  if (!NETWORK_NAMES.includes(network)) fail(`--network must be one of ${NETWORK_NAMES.join(', ')}, not "${network}"`);
  const rpcUrl = value('rpc', 'RPC_URL');
  const webRoot = value('web', 'WEB_ROOT');
  const rateLimit = value('rate-limit', 'RATE_LIMIT') ?? 'on';
  if (rateLimit !== 'on' && rateLimit !== 'off') fail(`--rate-limit must be on or off, not "${rateLimit}"`);
  const confirmationsText = value('confirmations', 'CONFIRMATIONS');
  if (confirmationsText !== undefined && !/^\d{1,3}$/.test(confirmationsText)) {
    fail(`--confirmations must be a whole number of blocks from 0 to 999, not "${confirmationsText}"`);
  }
  const keys = value('keys', 'API_KEYS') ?? 'on';
  if (keys !== 'on' && keys !== 'off') fail(`--keys must be on or off, not "${keys}"`);
  return {
    port,
    ...(keys === 'off' ? { keys: false } : {}),
    ...(confirmationsText !== undefined ? { confirmations: Number(confirmationsText) } : {}),
    network,
    dataDir: resolve(
      value('data', 'DATA_DIR') ?? (sameNetwork && saved.dataDir ? `${saved.dataDir}/${network}` : `.data/${network}`),
    ),
    settingsFile,
    ...(rpcUrl ? { rpcUrl } : {}),
    // With the web UI comes the app channel (signers, sending), opened only by this run's token.
    ...(webRoot
      ? { webRoot: resolve(webRoot), appToken: process.env.APP_TOKEN || randomBytes(24).toString('base64url') }
      : {}),
    ...(rateLimit === 'off' ? { rateLimits: false as const } : {}),
  };
}

const service = await startService(readOptions()).catch((error: Error) => fail(`could not start: ${error.message}`));
process.stdout.write(`ready ${service.url}\n`);
if (service.appToken) {
  process.stderr.write(
    `web UI: ${service.origin}/#app=${service.appToken}  (open this address: the token in it lets the page use your signer)\n`,
  );
}

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) process.exit(1);
    stopping = true;
    service.close().then(
      () => process.exit(0),
      (error: Error) => fail(`shutdown failed: ${error.message}`),
    );
  });
}
