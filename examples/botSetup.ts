import { parseArgs } from 'node:util';
import {
  type Account,
  type Chain,
  createPublicClient,
  createWalletClient,
  defineChain,
  type Hex,
  http,
  type PublicClient,
  type Transport,
  type WalletClient,
} from 'viem';
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { type Companion, createCompanion, type Settings } from '../clients/ts/src/index';

/** Where the app serves its API unless told otherwise (`npm start`'s port). */
export const DEFAULT_API = 'http://127.0.0.1:8787/api/v1';
/** The devnet's public test mnemonic: its accounts hold devnet money only. */
const DEVNET_MNEMONIC = 'test test test test test test test test test test test junk';
export const DEVNET_CHAIN_ID = 31337;

export interface Bot {
  /** The API root the bot talks to. */
  baseUrl: string;
  companion: Companion;
  settings: Settings;
  account: Account;
  walletClient: WalletClient<Transport, Chain, Account>;
  publicClient: PublicClient;
}

/**
 * What every example starts with: the client of the running app (COMPANION_URL, COMPANION_API_KEY), the service's
 * settings, and a viem wallet that signs with BOT_KEY and sends through RPC_URL. On the devnet both may be left out:
 * the bot then signs with the test account given (public keys, devnet money) and sends through the app's own /rpc.
 */
export async function connectBot(devnetAccount: number): Promise<Bot> {
  const baseUrl = process.env.COMPANION_URL ?? DEFAULT_API;
  const apiKey = process.env.COMPANION_API_KEY;
  const companion = createCompanion({ baseUrl, ...(apiKey ? { apiKey } : {}) });
  const settings = await companion.settings();
  const devnet = settings.chainId === DEVNET_CHAIN_ID;
  const key = process.env.BOT_KEY;
  if (!key && !devnet) throw new Error(`BOT_KEY must hold the bot's private key on ${settings.network}`);
  const account = key
    ? privateKeyToAccount(key as Hex)
    : mnemonicToAccount(DEVNET_MNEMONIC, { addressIndex: devnetAccount });
  const rpcUrl = process.env.RPC_URL ?? (devnet ? `${new URL(baseUrl).origin}/rpc` : undefined);
  if (!rpcUrl) throw new Error(`RPC_URL must name a node of ${settings.network} to send through`);
  const chain = defineChain({
    id: settings.chainId,
    name: settings.network,
    nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const transport = http(rpcUrl);
  return {
    baseUrl,
    companion,
    settings,
    account,
    walletClient: createWalletClient({ account, chain, transport }),
    publicClient: createPublicClient({ chain, transport }) as PublicClient,
  };
}

/**
 * The command line's `--name value` options, each a string, with defaults. `--help` prints `usage` (the bot's own
 * lines) and exits.
 */
export function readOptions<T extends Record<string, string>>(defaults: T, usage?: string): T {
  const options = {
    ...Object.fromEntries(Object.keys(defaults).map((name) => [name, { type: 'string' as const }])),
    help: { type: 'boolean' as const },
  };
  const { values } = parseArgs({ options, strict: true });
  if (values.help) {
    console.log(
      usage ??
        `options: ${Object.keys(defaults)
          .map((name) => `--${name}`)
          .join(' ')}`,
    );
    process.exit(0);
  }
  const { help: _, ...given } = values;
  return { ...defaults, ...given } as T;
}

/** An error a bot stops on, with what to do about it. */
export function usageError(message: string, fix: string): Error {
  return Object.assign(new Error(message), { fix });
}

/** An amount of gwei (a tip per gas) as wei, from its decimal string, never through a float. */
export function gweiToWei(gwei: string, option: string): bigint {
  const match = /^(\d+)(?:\.(\d{1,9}))?$/.exec(gwei);
  if (!match)
    throw usageError(`${option} ${gwei} is not an amount of gwei`, `Give it as 0.1 or 1 (gwei): ${option} 0.1`);
  return BigInt(match[1] ?? '0') * 1_000_000_000n + BigInt((match[2] ?? '').padEnd(9, '0'));
}

/** Runs a bot's main: a failure is printed with its code and fix, and the exit code says so. */
export function runMain(main: (signal: AbortSignal) => Promise<void>): void {
  const stop = new AbortController();
  process.once('SIGINT', () => stop.abort());
  process.once('SIGTERM', () => stop.abort());
  main(stop.signal).then(
    () => process.exit(0),
    (error: { code?: string; message?: string; fix?: string }) => {
      console.error(`failed: ${error.code ? `${error.code}: ` : ''}${error.message ?? String(error)}`);
      if (error.fix) console.error(`fix: ${error.fix}`);
      process.exit(1);
    },
  );
}

/**
 * A decimal amount as a trader reads it: separators and six significant digits, formatted from the exact string
 * (never through a float); `floor` for a minimum, so it never reads more than it is.
 */
export function readable(amount: string, rounding: 'halfExpand' | 'floor' = 'halfExpand'): string {
  const format = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 6, roundingMode: rounding });
  return format.format(amount as Intl.StringNumericLiteral);
}
