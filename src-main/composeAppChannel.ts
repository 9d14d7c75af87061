import type { ChainContext } from './chain/connectChain';
import { privateRpc } from './chain/privateRpc';
import type { Logger } from './log/createLogger';
import { type AppChannel, type AppInfo, createAppChannel } from './services/appChannel';
import type { BuiltApprovals } from './services/builtApprovals';
import { chainRead } from './services/chainRead';
import { type DollarPrices, dollarsPerUnit } from './services/dollarPrices';
import { headlessConfirmer, type SigningConfirmer } from './services/signingConfirmer';
import { type SigningReads, signingPolicy } from './services/signingPolicy';
import { testFaucet } from './services/testFaucet';
import { TransactionSender } from './services/transactionSender';
import type { KeyWorker } from './signer/keyWorker/keyWorker';
import { ledgerAccess } from './signer/ledger/ledgerAccess';
import { LEDGER_LIVE_PATH_TEMPLATE, LEGACY_PATH_TEMPLATE } from './signer/ledger/ledgerSigner';
import { type KeyCipher, passphraseCipher } from './signer/localKey/keyCipher';
import { type LedgerAccess, Signers } from './signer/signers';
import { type ActivityEntry, ActivityStore } from './store/activityStore';
import type { Db } from './store/openDatabase';

export interface AppChannelOptions {
  dataDir: string;
  /** The approval steps the service built: main signs no other approval. */
  builtApprovals: BuiltApprovals;
  /** The service's dollar prices, shown by the UI beside amounts. */
  prices: DollarPrices;
  info: Omit<
    AppInfo,
    'chainId' | 'network' | 'fork' | 'dataDir' | 'ledgerPaths' | 'logFile' | 'privateRpc' | 'signingConfirmation'
  > & {
    logFile?: string | null;
  };
  /** A block builder's private RPC for launches (and, with `trades`, buys and sells); `timeoutMs` per send. */
  privateRpc?: { url: string; trades: boolean; timeoutMs?: number };
  /** How the local key is sealed: the OS keychain in the desktop app, a passphrase headless (the default). */
  keyCipher?: KeyCipher;
  /**
   * The process that holds the local key while it is unlocked (a Node child process by default; Electron's
   * utilityProcess in the desktop app). Whoever passes it closes it.
   */
  keyWorker?: KeyWorker;
  /** Applies the person's choice about fetching other people's logos at once. */
  applyThirdPartyFetches?: (on: boolean) => void;
  /** The Ledger: the real one over USB HID by default (opened only when asked); tests give an emulator. */
  ledger?: LedgerAccess;
  /** The quotes and referrer bindings main judges transactions with (the service's own). */
  signingReads: SigningReads;
  /**
   * Where the person confirms main's warnings: the desktop app's native dialog; headless (the default), the review's
   * ticks when `allowWarnedSigning`, else nowhere (refused).
   */
  confirmer?: SigningConfirmer;
  allowWarnedSigning?: boolean;
  /** The most per gas main signs for (DEFAULT_MAX_GAS_PRICE_WEI unless set). */
  maxGasPriceWei?: bigint;
  now?: () => number;
  /** Told of each activity entry once it has its receipt or has failed. */
  onActivitySettled?: (entry: ActivityEntry) => void;
  /** The service's logger: sending and the signers log on its children 'signer'. */
  log: Logger;
}

/** The app's own side of main: signers, the activity list, sending. Follows what an earlier run left in flight. */
export function composeAppChannel(chain: ChainContext, db: Db, options: AppChannelOptions): AppChannel {
  const activity = new ActivityStore(db, options.now, options.onActivitySettled);
  const log = options.log.child({ component: 'signer' });
  const signers = new Signers(
    options.dataDir,
    options.keyCipher ?? passphraseCipher(),
    options.ledger ?? ledgerAccess(),
    log,
    ...(options.keyWorker ? [options.keyWorker] : []),
  );
  const lane = options.privateRpc
    ? {
        rpc: privateRpc(options.privateRpc.url, {
          ...(options.privateRpc.timeoutMs ? { timeoutMs: options.privateRpc.timeoutMs } : {}),
        }),
        trades: options.privateRpc.trades,
      }
    : null;
  if (lane) {
    log.info(
      `launches${lane.trades ? ', buys and sells' : ''} are sent through the private RPC ${lane.rpc.shownUrl}, never the public mempool`,
    );
  }
  const confirmer = options.confirmer ?? headlessConfirmer(options.allowWarnedSigning ?? false);
  const sender = new TransactionSender(
    chain,
    signers,
    activity,
    signingPolicy(chain, {
      builtApprovals: options.builtApprovals,
      prices: options.prices,
      reads: options.signingReads,
      confirmer,
      ...(options.maxGasPriceWei !== undefined ? { maxGasPriceWei: options.maxGasPriceWei } : {}),
      rpcUrl: options.info.rpcUrl,
      ...(options.now ? { now: options.now } : {}),
    }),
    log,
    options.now,
    lane,
  );
  sender.resume();
  return createAppChannel({
    info: {
      ...options.info,
      logFile: options.info.logFile ?? null,
      network: chain.network,
      chainId: chain.chainId,
      fork: chain.fork ?? null,
      dataDir: options.dataDir,
      privateRpc: lane ? { url: lane.rpc.shownUrl, trades: lane.trades } : null,
      ledgerPaths: { live: LEDGER_LIVE_PATH_TEMPLATE, legacy: LEGACY_PATH_TEMPLATE },
      signingConfirmation: confirmer.surface,
    },
    signers,
    sender,
    activity,
    log: options.log.child({ component: 'appChannel' }),
    market: {
      async dollars() {
        const { wbnb, usdt } = chain.addresses;
        const listed = [
          { address: wbnb, symbol: 'BNB', decimals: 18 },
          { address: usdt, symbol: 'USDT', decimals: 18 },
        ];
        const currencies = await Promise.all(
          listed.map(async (currency) => ({
            ...currency,
            usdPerUnit: dollarsPerUnit(
              await options.prices.rate(currency.address, currency.decimals),
              currency.decimals,
            ),
          })),
        );
        return { currencies };
      },
      bnbOf: (address) => chainRead('the BNB balance', () => chain.client.getBalance({ address })),
    },
    ...(chain.devnet ? { faucet: testFaucet(chain.devnet, chain.client) } : {}),
    ...(options.applyThirdPartyFetches ? { applyThirdPartyFetches: options.applyThirdPartyFetches } : {}),
  });
}
