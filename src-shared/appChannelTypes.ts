/**
 * What main and the app's own UI say to each other over the app channel (IPC in Electron, /app headless), which the
 * OpenAPI document does not cover: it is never served to bots. Main defines its answers with these types and the
 * renderer reads them, so the renderer needs nothing from src-main.
 */

import type { z } from 'zod';
import type { LedgerModel } from './inspect/ledgerScreens';
import type { AppSettingsSchema, NETWORK_NAMES } from './schema/appChannel';

type Address = `0x${string}`;
type Hex = `0x${string}`;

/** `fork`: the embedded EVM forked from another chain (a rehearsal), under a chain id of its own. */
export type NetworkName = (typeof NETWORK_NAMES)[number];

/** What a rehearsal forked: the source chain, where, and through which RPC. */
export interface ForkInfo {
  /** The source's chain id (56, 97, or 31337 for one of our devnets). */
  sourceChainId: number;
  /** mainnet, testnet or devnet. */
  sourceNetwork: 'mainnet' | 'testnet' | 'devnet';
  /** The block the fork starts from; the fork's own blocks follow it. */
  block: number;
  /** The source's RPC URL with any credentials in it masked. */
  url: string;
  /** Whether our contracts came from the source (found there) or were deployed into the fork at start. */
  contracts: 'found' | 'deployed';
}

/** Every operation the channel takes; main validates each one's input with its schema in schema/appChannel.ts. */
export const APP_OPERATIONS = [
  'app.info',
  'signer.status',
  'signer.importKey',
  'signer.unlock',
  'signer.lock',
  'signer.forget',
  'signer.use',
  'ledger.addresses',
  'ledger.use',
  'tx.prepare',
  'ledger.configuration',
  'tx.send',
  'tx.wait',
  'message.sign',
  'activity.list',
  'settings.get',
  'settings.save',
  'settings.thirdPartyFetches',
  'market.dollars',
  'wallet.balance',
  'wallet.fund',
] as const;

export type AppOperation = (typeof APP_OPERATIONS)[number];

export interface AppInfo {
  /** Where Settings are saved for the next start; null when this run saves none. */
  settingsFile: string | null;
  /** The file this run logs to, to attach to a bug report; null when it writes none. */
  logFile: string | null;
  network: NetworkName;
  chainId: number;
  rpcUrl: string | null;
  /** Present on a rehearsal: what it forked. Nothing signed on it is valid on the source chain. */
  fork: ForkInfo | null;
  dataDir: string;
  rateLimits: boolean;
  /** Whether other people's launch metadata and logos are fetched (each fetch shows this machine's IP to them). */
  thirdPartyFetches: boolean;
  /**
   * Whether the person (or this run's flags) chose about those fetches. False: not yet; they are off, and the UI asks
   * once.
   */
  thirdPartyFetchesChosen: boolean;
  /** Where shared referral links point: a public https:// site, or the app's own scheme (launchpad-companion://app). */
  publicLinkBase: string;
  /**
   * A block builder's private RPC this run sends launches (and, with `trades`, buys and sells) to, instead of the
   * public mempool; its URL with what may be a key masked. Null: everything goes to the RPC.
   */
  privateRpc: { url: string; trades: boolean } | null;
  /** Derivation path templates, `{i}` standing for the account index: Ledger Live's and the legacy (MetaMask) one. */
  ledgerPaths: { live: string; legacy: string };
  /**
   * Where main takes the person's confirmation of what it warns about before signing: its own window (desktop), the
   * review's ticks (headless started with --allow-warned-signing), or nowhere, so such requests are refused.
   */
  signingConfirmation: 'native-dialog' | 'page' | 'refused';
}

/** What one whole unit of a currency the service lists is worth in dollars, from the chain; null without a price. */
export interface DollarQuote {
  /** The currency's contract (for BNB, wrapped BNB). */
  address: Address;
  symbol: string;
  decimals: number;
  usdPerUnit: number | null;
}

/** The dollar prices the app shows beside amounts: BNB (by the WBNB/USDT pool) and the dollar stablecoin. */
export interface MarketDollars {
  currencies: DollarQuote[];
}

/** A wallet's BNB, for the header. */
export interface WalletBalance {
  address: Address;
  bnbWei: string;
}

/** Test BNB sent to a wallet on the devnet or a rehearsal, from one of the test accounts. */
export interface WalletFunded {
  address: Address;
  /** The transaction that sent it (a block of its own, kept in the journal like any other). */
  hash: Hex;
  bnbWei: string;
  /** The wallet's BNB afterwards. */
  balanceWei: string;
}

/** What `settings.thirdPartyFetches` answers: the choice in force now, and the file it was kept in (null: none). */
export interface ThirdPartyFetchesChoice {
  thirdPartyFetches: boolean;
  keptIn: string | null;
}

/** The settings saved for the next start (app-settings.json); each one missing takes its default. */
export type SavedAppSettings = Partial<z.input<typeof AppSettingsSchema>>;

/** What the Ethereum app on the device says of itself. */
export interface LedgerConfiguration {
  /**
   * Whether the app signs transactions whose contract data it cannot decode ("Blind signing" in its settings). Off on
   * a new device, and every trade, launch and approval here is such a transaction.
   */
  blindSigning: boolean;
  /** The Ethereum app's version, e.g. "1.22.0". */
  version: string;
  /**
   * The device's model, from its USB product id, so the review lays values out as that device does; null when the
   * transport does not say or the model's layout is not known here.
   */
  model: LedgerModel | null;
}

export interface SignerStatus {
  /** Which signer signs now; null until a local key is unlocked or a Ledger account chosen. */
  active: 'local' | 'ledger' | null;
  /** The active signer's address. */
  address: Address | null;
  localKey: { address: Address; unlocked: boolean; needsPassphrase: boolean } | null;
  ledger: { path: string; address: Address } | null;
  /**
   * What the Ledger's Ethereum app last said of itself (when an account was chosen, or asked with
   * ledgerConfiguration): blind signing off means every contract call will be refused until it is turned on.
   */
  ledgerApp: LedgerConfiguration | null;
  /** Requests waiting for the signer (a Ledger waiting for the person counts). */
  queued: number;
}

export type ActivityStatus = 'signing' | 'signed' | 'sent' | 'confirmed' | 'reverted' | 'failed';

/** An amount of one currency moved by a mined transaction: `BNB` native, or a token (WBNB included) by address. */
export interface ActivityMovement {
  currency: Address | 'BNB';
  /** Wei, as a string of digits. */
  wei: string;
}

/**
 * What a confirmed transaction really moved for the wallet, read from its receipt's logs: what arrived (each token's
 * Transfer logs to the wallet, and the BNB a sale paid as the router's Trade event says) and what the trade paid (its
 * Trade event). Amounts to the wei, not the build's floors and ceilings.
 */
export interface ActivityMoved {
  received: ActivityMovement[];
  /** Empty when the receipt says nothing of it (a launch pays its value, which the entry has). */
  paid: ActivityMovement[];
}

/** One thing the app signed (and sent) for the person. Amounts are wei strings, as stored. */
export interface ActivityEntry {
  id: string;
  groupId: string;
  step: string;
  kind: string;
  title: string;
  wallet: Address;
  chainId: number;
  to: Address | null;
  data: Hex | null;
  value: string | null;
  message: string | null;
  nonce: number | null;
  hash: Hex | null;
  status: ActivityStatus;
  /** Why it failed or reverted, in the person's words. */
  error: string | null;
  /**
   * For a transaction mined but reverted: the contract's error it reverted with, as decoded (`PoolOccupied`,
   * `LimitNotMet`...), which the app acts on; null when it could not be told, and for anything else.
   */
  revert: string | null;
  block: number | null;
  gasUsed: string | null;
  /** Sent to a block builder's private RPC (never the public mempool) rather than the public RPC. */
  sentPrivately: boolean;
  /** The network fee the mined transaction cost, in wei (gas used times the price paid); null before it is mined. */
  feeWei: string | null;
  /** What it moved, read from its receipt once confirmed; null before, when reverted, and for rows stored before. */
  moved: ActivityMoved | null;
  createdAt: number;
  updatedAt: number;
}
