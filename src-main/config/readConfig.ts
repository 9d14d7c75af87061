import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { LevelWithSilent } from 'pino';
import { privateRpcUrlProblem } from '../../src-shared/privateRpcUrl';
import { NETWORK_NAMES, type NetworkName } from '../chain/networks';
import { publicLinkBaseProblem } from '../core/appPages';
import type { ServiceOptions } from '../startService';
import { readAppSettings, type SavedAppSettings } from '../store/appSettingsFile';

const USAGE =
  'usage: npm run serve -- [--port 8787] [--data DIR] [--network devnet|testnet|mainnet] [--rpc URL] ' +
  '[--fork URL [--fork-block N|latest]] ' +
  '[--rpc-timeout SECONDS] [--web DIR] [--rate-limit on|off] [--confirmations N] [--keys on|off] ' +
  '[--third-party-fetches on|off] [--public-link-base https://…] [--bsc-fees] [--block-time MS] ' +
  '[--private-rpc URL [--private-trades]] [--max-gas-price-gwei GWEI] [--allow-warned-signing] ' +
  '[--log-level fatal|error|warn|info|debug|trace|silent] [--log-file FILE]';

/** The levels `--log-level` / LOG_LEVEL may name: pino's, and silent. */
export const LOG_LEVELS: readonly LevelWithSilent[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Each option's flag and environment variable: the one table both entry points read. */
const SOURCES = {
  port: 'PORT',
  data: 'DATA_DIR',
  network: 'NETWORK',
  rpc: 'RPC_URL',
  fork: 'FORK_URL',
  'fork-block': 'FORK_BLOCK',
  'rpc-timeout': 'RPC_TIMEOUT',
  web: 'WEB_ROOT',
  'rate-limit': 'RATE_LIMIT',
  confirmations: 'CONFIRMATIONS',
  keys: 'API_KEYS',
  'third-party-fetches': 'THIRD_PARTY_FETCHES',
  'public-link-base': 'PUBLIC_LINK_BASE',
  'log-level': 'LOG_LEVEL',
  'log-file': 'LOG_FILE',
  'block-time': 'BLOCK_TIME',
  'private-rpc': 'PRIVATE_RPC_URL',
  'max-gas-price-gwei': 'MAX_GAS_PRICE_GWEI',
} as const;

type Flag = keyof typeof SOURCES;

/** A flag, variable or saved setting that cannot start the service: its message names it and what it may be. */
export class ConfigUsageError extends Error {}

/** Which entry reads the configuration: the Electron app, or `npm run serve`. */
export type Entry = 'desktop' | 'headless';

export interface ConfigDefaults {
  /** The folder holding one data folder per network: `.data` headless, Electron's userData on the desktop. */
  dataRoot: string;
  /** Where the Settings screen saves its choices (APP_SETTINGS overrides it). */
  settingsFile: string;
  /** The built UI served at `/`: the desktop window's own; headless serves one only when --web names it. */
  webRoot?: string;
  /** The log file written unless --log-file names another: the desktop's under userData; none headless. */
  logFile?: string;
}

/** The headless server's defaults: data, settings and no log file under the working directory's `.data`. */
export const HEADLESS_DEFAULTS: ConfigDefaults = { dataRoot: '.data', settingsFile: '.data/app-settings.json' };

/**
 * The desktop app's defaults from Electron's paths, given in so this stays testable without Electron: everything in
 * userData, the log a person attaches to a bug report in its `logs` folder, the window's UI from the app itself.
 *
 * @example desktopDefaults({ userData: app.getPath('userData'), appPath: app.getAppPath() })
 */
export function desktopDefaults(paths: { userData: string; appPath: string }): ConfigDefaults {
  return {
    dataRoot: paths.userData,
    settingsFile: join(paths.userData, 'app-settings.json'),
    webRoot: join(paths.appPath, 'out/renderer'),
    logFile: join(paths.userData, 'logs', 'companion.log'),
  };
}

export interface ConfigSources {
  /** The command-line arguments after the program (and, for Electron in development, after the app folder). */
  args: readonly string[];
  env: NodeJS.ProcessEnv;
  entry: Entry;
  defaults: ConfigDefaults;
  /** The one read of the saved settings file (readAppSettings unless a test gives its own). */
  readSettings?: (file: string) => { settings: SavedAppSettings; problem?: string };
}

export interface Config
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
    | 'blockTimeMs'
    | 'privateRpcUrl'
    | 'privateTrades'
    | 'maxGasPriceWei'
    | 'allowWarnedSigning'
  > {
  logLevel: LevelWithSilent;
  /** The file the run logs JSON lines to (rotated), or null for none. */
  logFile: string | null;
  /** A problem with the saved settings file, which was ignored (to be logged, not fatal). */
  settingsProblem?: string;
}

/** One option's value and where it came from, so a refusal can name what the person set. */
interface Given {
  text: string;
  from: string;
}

function usage(message: string): never {
  throw new ConfigUsageError(message);
}

/**
 * `--rpc-timeout` / `RPC_TIMEOUT` (whole seconds, 1 to 999) in milliseconds; undefined when not given (viem's 10 s).
 * A run over a slow RPC raises it; a bot that wants CHAIN_UNREACHABLE quickly lowers it.
 */
export function rpcTimeoutMsOf(text: string | undefined, from = '--rpc-timeout (RPC_TIMEOUT)'): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d{1,3}$/.test(text) || Number(text) < 1) {
    usage(`${from} must be a whole number of seconds from 1 to 999, not "${text}"`);
  }
  return Number(text) * 1000;
}

/** The fee cap in gwei (decimals allowed, as BSC's 0.05), as wei per gas; above 0 and at most 100,000 gwei. */
function gweiToWei({ text, from }: Given): bigint {
  const match = /^(\d{1,6})(?:\.(\d{1,9}))?$/.exec(text);
  const wei = match ? BigInt(match[1] as string) * 10n ** 9n + BigInt((match[2] ?? '').padEnd(9, '0')) : 0n;
  if (!match || wei === 0n || wei > 100_000n * 10n ** 9n) {
    usage(`${from} must be a price per gas in gwei above 0 and at most 100000 (BSC's floor is 0.05), not "${text}"`);
  }
  return wei;
}

/**
 * Whether trades go through the private RPC too: `--private-trades`, else PRIVATE_TRADES (1 or on; 0, off or empty
 * say no), else the saved checkbox (for the network it was saved with, like the private RPC URL it goes with).
 * Returns where the yes came from, or undefined for no.
 */
function privateTradesOf(
  flag: boolean,
  variable: string | undefined,
  saved: boolean | undefined,
  sameNetwork: boolean,
): { from: string; saved?: true } | undefined {
  if (flag) return { from: '--private-trades' };
  if (variable !== undefined) {
    if (variable === '1' || variable === 'on') return { from: 'PRIVATE_TRADES' };
    if (variable === '0' || variable === 'off' || variable === '') return undefined;
    usage(`PRIVATE_TRADES must be 1 (send buys and sells privately too) or 0, not "${variable}"`);
  }
  return saved === true && sameNetwork ? { from: 'the saved "send trades privately" setting', saved: true } : undefined;
}

/**
 * The flags given, by name. Headless refuses any it does not know; the desktop passes over what Electron and Chromium
 * take (--no-sandbox, ...) and the app links the OS hands it, but still refuses a known flag left without its value.
 */
function flagsOf(
  args: readonly string[],
  entry: Entry,
): { values: Partial<Record<Flag, string>>; bscFees: boolean; privateTrades: boolean; allowWarnedSigning: boolean } {
  const options = Object.fromEntries([
    ...Object.keys(SOURCES).map((flag) => [flag, { type: 'string' as const }]),
    ['bsc-fees', { type: 'boolean' as const }],
    ['private-trades', { type: 'boolean' as const }],
    ['allow-warned-signing', { type: 'boolean' as const }],
  ]);
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: [...args],
      options,
      strict: entry === 'headless',
      allowPositionals: entry === 'desktop',
    }).values as Record<string, string | boolean | undefined>;
  } catch (error) {
    usage(`${(error as Error).message}\n${USAGE}`);
  }
  const known: Partial<Record<Flag, string>> = {};
  for (const flag of Object.keys(SOURCES) as Flag[]) {
    const value = values[flag];
    if (value === true) usage(`--${flag} needs a value\n${USAGE}`);
    if (typeof value === 'string') known[flag] = value;
  }
  const bscFees = values['bsc-fees'];
  if (bscFees !== undefined && bscFees !== true) usage(`--bsc-fees takes no value, not "${String(bscFees)}"`);
  const privateTrades = values['private-trades'];
  if (privateTrades !== undefined && privateTrades !== true) {
    usage(`--private-trades takes no value, not "${String(privateTrades)}"`);
  }
  const allowWarned = values['allow-warned-signing'];
  if (allowWarned !== undefined && allowWarned !== true) {
    usage(`--allow-warned-signing takes no value, not "${String(allowWarned)}"`);
  }
  return {
    values: known,
    bscFees: bscFees === true,
    privateTrades: privateTrades === true,
    allowWarnedSigning: allowWarned === true,
  };
}

/**
 * The service's options for either entry, with one precedence for every option: flags, then environment variables,
 * then what the Settings screen saved (its RPC, fork block and data folder only for the network they were saved
 * with), then the entry's defaults. Pure apart from the one read of the saved settings. Throws ConfigUsageError,
 * naming the flag, variable or saved setting, for a value it cannot use.
 *
 * @example readConfig({ args: ['--port', '0'], env: {}, entry: 'headless', defaults: { dataRoot: '.data', settingsFile: '.data/app-settings.json' } })
 * // { port: 0, network: 'devnet', dataDir: '/abs/.data/devnet', logLevel: 'info', logFile: null, ... }
 */
export function readConfig(sources: ConfigSources): Config {
  const { env, entry, defaults } = sources;
  const flags = flagsOf(sources.args, entry);
  const settingsFile = resolve(env.APP_SETTINGS ?? defaults.settingsFile);
  const { settings: saved, problem } = (sources.readSettings ?? readAppSettings)(settingsFile);
  const fromFlagOrEnv = (flag: Flag): Given | undefined => {
    const flagged = flags.values[flag];
    if (flagged !== undefined) return { text: flagged, from: `--${flag}` };
    const variable = SOURCES[flag];
    const set = env[variable];
    return set !== undefined ? { text: set, from: variable } : undefined;
  };

  // --fork URL is a rehearsal on the embedded EVM forked from the chain behind URL (network "fork").
  const fork = fromFlagOrEnv('fork');
  const networkGiven = fromFlagOrEnv('network');
  const networkFlag = flags.values.network;
  if (fork && networkFlag !== undefined && networkFlag !== 'fork') {
    usage(`${fork.from} rehearses on a fork of the chain behind its URL: leave out --network ${networkFlag}`);
  }
  if (fork && flags.values.rpc !== undefined) usage(`${fork.from} takes the RPC of the chain to fork: leave out --rpc`);
  const chosenNetwork = fork ? 'fork' : (networkGiven?.text ?? saved.network);
  // The saved RPC, fork block and data folder belong to the saved network: a run on another one leaves them aside.
  const sameNetwork = chosenNetwork === saved.network;
  const savedAt = (setting: string) => `the saved ${setting} (in ${settingsFile})`;
  const fromSaved: Partial<Record<Flag, Given | undefined>> = {
    network: saved.network ? { text: saved.network, from: savedAt('network') } : undefined,
    rpc: sameNetwork && saved.rpcUrl ? { text: saved.rpcUrl, from: savedAt('RPC URL') } : undefined,
    // A builder's private endpoint serves one chain: like the RPC URL, it belongs to the network it was saved with.
    'private-rpc':
      sameNetwork && saved.privateRpcUrl ? { text: saved.privateRpcUrl, from: savedAt('private RPC URL') } : undefined,
    'fork-block':
      sameNetwork && saved.forkBlock != null
        ? { text: String(saved.forkBlock), from: savedAt('fork block') }
        : undefined,
    'rate-limit': saved.rateLimits === false ? { text: 'off', from: savedAt('rate limits') } : undefined,
    // The person's choice, once made (on the first run, or in Settings); until then no value, and fetches stay off.
    'third-party-fetches':
      typeof saved.thirdPartyFetches === 'boolean'
        ? { text: saved.thirdPartyFetches ? 'on' : 'off', from: savedAt('third-party fetches') }
        : undefined,
    'public-link-base': saved.publicLinkBase ? { text: saved.publicLinkBase, from: savedAt('link base') } : undefined,
    'max-gas-price-gwei':
      saved.maxGasPriceGwei != null ? { text: String(saved.maxGasPriceGwei), from: savedAt('fee cap') } : undefined,
  };
  const given = (flag: Flag): Given | undefined => fromFlagOrEnv(flag) ?? fromSaved[flag];
  const onOff = (flag: Flag): 'on' | 'off' => {
    const value = given(flag);
    if (value && value.text !== 'on' && value.text !== 'off')
      usage(`${value.from} must be on or off, not "${value.text}"`);
    return (value?.text as 'on' | 'off' | undefined) ?? 'on';
  };

  const portGiven = given('port');
  const port = Number(portGiven?.text ?? 8787);
  if (portGiven && (!/^\d+$/.test(portGiven.text) || port > 65535)) {
    usage(`${portGiven.from} must be a port number from 0 to 65535, not "${portGiven.text}"`);
  }
  const network = (fork ? 'fork' : (given('network')?.text ?? 'devnet')) as NetworkName;
  if (!NETWORK_NAMES.includes(network)) {
    usage(`${given('network')?.from ?? '--network'} must be one of ${NETWORK_NAMES.join(', ')}, not "${network}"`);
  }
  const rpcUrl = network === 'fork' ? (fork?.text ?? given('rpc')?.text) : given('rpc')?.text;
  if (network === 'fork' && !rpcUrl) {
    usage('--network fork needs --fork URL: the RPC of the chain to rehearse on (BSC mainnet or testnet)');
  }
  const forkBlock = network === 'fork' ? given('fork-block') : undefined;
  if (forkBlock && !/^(\d{1,12}|latest)$/.test(forkBlock.text)) {
    usage(`${forkBlock.from} must be a block number or latest, not "${forkBlock.text}"`);
  }
  const timeout = given('rpc-timeout');
  const rpcTimeoutMs = rpcTimeoutMsOf(timeout?.text, timeout?.from);
  const webRoot = given('web')?.text ?? defaults.webRoot;
  const rateLimit = onOff('rate-limit');
  const confirmations = given('confirmations');
  if (confirmations && !/^\d{1,3}$/.test(confirmations.text)) {
    usage(`${confirmations.from} must be a whole number of blocks from 0 to 999, not "${confirmations.text}"`);
  }
  const keys = onOff('keys');
  const linkBase = given('public-link-base');
  const linkBaseProblem = linkBase ? publicLinkBaseProblem(linkBase.text) : null;
  if (linkBase && linkBaseProblem) usage(`${linkBase.from}: ${linkBaseProblem}, not "${linkBase.text}"`);
  // Not given anywhere is no choice at all: off, and the app asks the person (so not onOff's default on).
  const thirdParty = given('third-party-fetches') ? onOff('third-party-fetches') : undefined;
  const logLevel = given('log-level');
  if (logLevel && !LOG_LEVELS.includes(logLevel.text as LevelWithSilent)) {
    usage(`${logLevel.from} must be one of ${LOG_LEVELS.join(', ')}, not "${logLevel.text}"`);
  }
  const logFile = given('log-file')?.text ?? defaults.logFile;
  const blockTime = given('block-time');
  if (blockTime && (!/^\d{1,6}$/.test(blockTime.text) || (Number(blockTime.text) > 0 && Number(blockTime.text) < 50))) {
    usage(
      `${blockTime.from} must be 0 (a block for each transaction) or a block time from 50 to 999999 milliseconds (BSC: 750), not "${blockTime.text}"`,
    );
  }
  if (blockTime && Number(blockTime.text) > 0 && network !== 'devnet' && network !== 'fork') {
    usage(
      `${blockTime.from} sets the block time of the embedded chain: it works on the devnet and a fork, not on ${network}`,
    );
  }
  // An empty value (PRIVATE_RPC_URL=) is none: everything goes through the RPC, whatever was saved.
  const privateRpcGiven = given('private-rpc');
  const privateRpc = privateRpcGiven?.text ? privateRpcGiven : undefined;
  const privateRpcProblem = privateRpc ? privateRpcUrlProblem(privateRpc.text) : null;
  if (privateRpc && privateRpcProblem) {
    usage(
      `${privateRpc.from}: ${privateRpcProblem}, not "${privateRpc.text}"; fix it, or leave it out to send everything through the RPC`,
    );
  }
  const tradesAsked = privateTradesOf(flags.privateTrades, env.PRIVATE_TRADES, saved.privateTrades, sameNetwork);
  // The saved box goes with the saved URL: without any private RPC this run, it simply does nothing.
  const privateTrades = tradesAsked?.saved && !privateRpc ? undefined : tradesAsked;
  if (privateTrades && !privateRpc) {
    usage(
      `${privateTrades.from} sends buys and sells through the private RPC, and none is set: give --private-rpc URL (PRIVATE_RPC_URL) too, or leave it out`,
    );
  }
  const maxGasPrice = given('max-gas-price-gwei');
  const maxGasPriceWei = maxGasPrice ? gweiToWei(maxGasPrice) : undefined;
  const savedDataRoot = sameNetwork && saved.dataDir ? saved.dataDir : undefined;
  return {
    port,
    network,
    // One folder per network, so devnet and testnet data never share a database.
    dataDir: resolve(given('data')?.text ?? join(savedDataRoot ?? defaults.dataRoot, network)),
    settingsFile,
    ...(rpcUrl ? { rpcUrl } : {}),
    ...(forkBlock ? { forkBlock: forkBlock.text === 'latest' ? ('latest' as const) : BigInt(forkBlock.text) } : {}),
    ...(rpcTimeoutMs !== undefined ? { rpcTimeoutMs } : {}),
    ...(webRoot ? { webRoot: resolve(webRoot) } : {}),
    // Headless, the web UI comes with the app channel (signers, sending), opened only by this run's token. The
    // desktop window reaches that channel over IPC instead.
    ...(webRoot && entry === 'headless' ? { appToken: env.APP_TOKEN || randomBytes(24).toString('base64url') } : {}),
    ...(rateLimit === 'off' ? { rateLimits: false as const } : {}),
    ...(confirmations ? { confirmations: Number(confirmations.text) } : {}),
    ...(keys === 'off' ? { keys: false } : {}),
    ...(thirdParty ? { thirdPartyFetches: thirdParty === 'on' } : {}),
    ...(linkBase ? { publicLinkBase: linkBase.text } : {}),
    // The devnet with BSC's fees (base fee 0, a minimum gas price), to rehearse what the fee filling meets there.
    ...(flags.bscFees || env.BSC_FEES === 'on' ? { bscFees: true } : {}),
    // The devnet at BSC's cadence: a block every N ms holding the mempool, to rehearse what the next block means there.
    ...(blockTime && Number(blockTime.text) > 0 ? { blockTimeMs: Number(blockTime.text) } : {}),
    // Launches (and, asked, trades) go to a block builder's private RPC, never waiting in the public mempool.
    ...(privateRpc ? { privateRpcUrl: privateRpc.text } : {}),
    ...(privateTrades ? { privateTrades: true } : {}),
    ...(maxGasPriceWei !== undefined ? { maxGasPriceWei } : {}),
    // Headless, a transaction or message main warns about can be confirmed only on the page: signed only if asked for.
    ...(flags.allowWarnedSigning || env.ALLOW_WARNED_SIGNING === 'on' ? { allowWarnedSigning: true } : {}),
    logLevel: (logLevel?.text as LevelWithSilent | undefined) ?? 'info',
    logFile: logFile ? resolve(logFile) : null,
    ...(problem ? { settingsProblem: problem } : {}),
  };
}
