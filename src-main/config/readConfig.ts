import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { NETWORK_NAMES, type NetworkName } from './chain/networks';
import { publicLinkBaseProblem } from './core/appPages';
import type { ServiceOptions } from './startService';
import { readAppSettings } from './store/appSettingsFile';

const SERVE_USAGE =
  'usage: npm run serve -- [--port 8787] [--data DIR] [--network devnet|testnet|mainnet] [--rpc URL] ' +
  '[--fork URL [--fork-block N|latest]] ' +
  '[--rpc-timeout SECONDS] [--web DIR] [--rate-limit on|off] [--confirmations N] [--keys on|off] ' +
  '[--third-party-fetches on|off] [--public-link-base https://…] [--bsc-fees]';

/** A flag or variable that cannot start the server: its message says which and what it may be. */
export class ServeUsageError extends Error {}

export interface ServeOptions
  extends Pick<
    ServiceOptions,
    | 'port'
    | 'network'
    | 'dataDir'
    | 'settingsFile'
    | 'rpcUrl'
    | 'forkBlock'
    | 'rpcTimeoutMs'
    | 'webRoot'
    | 'appToken'
    | 'rateLimits'
    | 'confirmations'
    | 'keys'
    | 'thirdPartyFetches'
    | 'publicLinkBase'
    | 'bscFees'
  > {
  /** A problem with the saved settings file, which was ignored (to be logged, not fatal). */
  settingsProblem?: string;
}

function usage(message: string): never {
  throw new ServeUsageError(message);
}

/**
 * `--rpc-timeout` / `RPC_TIMEOUT` (whole seconds, 1 to 999) in milliseconds; undefined when not given (viem's 10 s).
 * A run over a slow RPC raises it; a bot that wants CHAIN_UNREACHABLE quickly lowers it.
 */
export function rpcTimeoutMsOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d{1,3}$/.test(text) || Number(text) < 1) {
    usage(`--rpc-timeout (RPC_TIMEOUT) must be a whole number of seconds from 1 to 999, not "${text}"`);
  }
  return Number(text) * 1000;
}

/**
 * The headless server's options from its flags, then its environment, then what the Settings screen saved for the
 * next start (for the saved network only). Throws ServeUsageError for a value it cannot use.
 *
 * @example readServeOptions(['--port', '0', '--rpc-timeout', '5'], {}) // { port: 0, rpcTimeoutMs: 5000, ... }
 */
export function readServeOptions(args: string[], env: NodeJS.ProcessEnv): ServeOptions {
  let parsed: ReturnType<typeof parseArgs>['values'];
  try {
    parsed = parseArgs({
      args,
      options: {
        port: { type: 'string' },
        data: { type: 'string' },
        network: { type: 'string' },
        rpc: { type: 'string' },
        fork: { type: 'string' },
        'fork-block': { type: 'string' },
        'rpc-timeout': { type: 'string' },
        web: { type: 'string' },
        'rate-limit': { type: 'string' },
        confirmations: { type: 'string' },
        keys: { type: 'string' },
        'third-party-fetches': { type: 'string' },
        'public-link-base': { type: 'string' },
        'bsc-fees': { type: 'boolean' },
      },
      strict: true,
    }).values;
  } catch (error) {
    usage(`${(error as Error).message}\n${SERVE_USAGE}`);
  }
  const settingsFile = resolve(env.APP_SETTINGS ?? '.data/app-settings.json');
  const { settings: saved, problem } = readAppSettings(settingsFile);
  // --fork URL is a rehearsal on the embedded EVM forked from the chain behind URL (network "fork").
  const forkUrl = (parsed.fork as string | undefined) ?? env.FORK_URL;
  if (forkUrl !== undefined && parsed.network !== undefined && parsed.network !== 'fork') {
    usage(`--fork rehearses on a fork of the chain behind its URL: leave out --network ${parsed.network as string}`);
  }
  if (forkUrl !== undefined && parsed.rpc !== undefined) {
    usage('--fork takes the RPC of the chain to fork: leave out --rpc');
  }
  const chosenNetwork = forkUrl ? 'fork' : ((parsed.network as string | undefined) ?? env.NETWORK ?? saved.network);
  // The saved RPC and data folder belong to the saved network: a run on another one ignores them.
  const sameNetwork = chosenNetwork === saved.network;
  const fromSaved: Record<string, string | undefined> = {
    network: saved.network,
    rpc: sameNetwork ? (saved.rpcUrl ?? undefined) : undefined,
    'fork-block': sameNetwork && saved.forkBlock != null ? String(saved.forkBlock) : undefined,
    'rate-limit': saved.rateLimits === false ? 'off' : undefined,
    'third-party-fetches': saved.thirdPartyFetches === false ? 'off' : undefined,
    'public-link-base': saved.publicLinkBase ?? undefined,
  };
  const value = (flag: string, name: string) => (parsed[flag] as string | undefined) ?? env[name] ?? fromSaved[flag];

  const portText = value('port', 'PORT') ?? '8787';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) usage(`--port must be a number from 0 to 65535, not "${portText}"`);
  const network = (forkUrl ? 'fork' : (value('network', 'NETWORK') ?? 'devnet')) as NetworkName;
  if (!NETWORK_NAMES.includes(network)) usage(`--network must be one of ${NETWORK_NAMES.join(', ')}, not "${network}"`);
  const rpcUrl = network === 'fork' ? (forkUrl ?? value('rpc', 'RPC_URL')) : value('rpc', 'RPC_URL');
  if (network === 'fork' && !rpcUrl) {
    usage('--network fork needs --fork URL: the RPC of the chain to rehearse on (BSC mainnet or testnet)');
  }
  const forkBlockText = network === 'fork' ? value('fork-block', 'FORK_BLOCK') : undefined;
  if (forkBlockText !== undefined && !/^(\d{1,12}|latest)$/.test(forkBlockText)) {
    usage(`--fork-block must be a block number or latest, not "${forkBlockText}"`);
  }
  const rpcTimeoutMs = rpcTimeoutMsOf(value('rpc-timeout', 'RPC_TIMEOUT'));
  const webRoot = value('web', 'WEB_ROOT');
  const rateLimit = value('rate-limit', 'RATE_LIMIT') ?? 'on';
  if (rateLimit !== 'on' && rateLimit !== 'off') usage(`--rate-limit must be on or off, not "${rateLimit}"`);
  const confirmationsText = value('confirmations', 'CONFIRMATIONS');
  if (confirmationsText !== undefined && !/^\d{1,3}$/.test(confirmationsText)) {
    usage(`--confirmations must be a whole number of blocks from 0 to 999, not "${confirmationsText}"`);
  }
  const keys = value('keys', 'API_KEYS') ?? 'on';
  if (keys !== 'on' && keys !== 'off') usage(`--keys must be on or off, not "${keys}"`);
  const publicLinkBase = value('public-link-base', 'PUBLIC_LINK_BASE');
  const linkBaseProblem = publicLinkBase ? publicLinkBaseProblem(publicLinkBase) : null;
  if (linkBaseProblem) usage(`--public-link-base: ${linkBaseProblem}, not "${publicLinkBase}"`);
  const thirdParty = value('third-party-fetches', 'THIRD_PARTY_FETCHES') ?? 'on';
  if (thirdParty !== 'on' && thirdParty !== 'off') {
    usage(`--third-party-fetches must be on or off, not "${thirdParty}"`);
  }
  return {
    port,
    network,
    dataDir: resolve(
      value('data', 'DATA_DIR') ?? (sameNetwork && saved.dataDir ? `${saved.dataDir}/${network}` : `.data/${network}`),
    ),
    settingsFile,
    ...(rpcUrl ? { rpcUrl } : {}),
    ...(forkBlockText !== undefined
      ? { forkBlock: forkBlockText === 'latest' ? ('latest' as const) : BigInt(forkBlockText) }
      : {}),
    ...(rpcTimeoutMs !== undefined ? { rpcTimeoutMs } : {}),
    // With the web UI comes the app channel (signers, sending), opened only by this run's token.
    ...(webRoot ? { webRoot: resolve(webRoot), appToken: env.APP_TOKEN || randomBytes(24).toString('base64url') } : {}),
    ...(rateLimit === 'off' ? { rateLimits: false as const } : {}),
    ...(confirmationsText !== undefined ? { confirmations: Number(confirmationsText) } : {}),
    ...(keys === 'off' ? { keys: false } : {}),
    ...(thirdParty === 'off' ? { thirdPartyFetches: false } : {}),
    ...(publicLinkBase ? { publicLinkBase } : {}),
    // The devnet with BSC's fees (base fee 0, a minimum gas price), to rehearse what the fee filling meets there.
    ...(parsed['bsc-fees'] === true || env.BSC_FEES === 'on' ? { bscFees: true } : {}),
    ...(problem ? { settingsProblem: problem } : {}),
  };
}
