import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chainClockMs } from './chain/chainClock';
import { type ChainContext, connectChain } from './chain/connectChain';
import type { NetworkName } from './chain/networks';
import { composeAppChannel } from './composeAppChannel';
import { DEFAULT_PUBLIC_LINK_BASE, publicLinkBaseProblem } from './core/appPages';
import { LIFETIME_WEEKLY_CAP_WEI } from './core/referrals/weeks';
import type { AnswerCheck } from './http/answerCheck';
import { type AppDeps, createApp, leanRoutes, type RateLimits } from './http/createApp';
import { EventStream, type EventStreamOptions } from './http/eventStream';
import { listenApi } from './http/listenApi';
import { holdTickRecordShape } from './http/tickRecordShape';
import { createLogger, type Logger } from './log/createLogger';
import { Alerts } from './services/alerts/alerts';
import { ApiKeys } from './services/apiKeys';
import type { AppChannel } from './services/appChannel';
import { BuildService } from './services/buildService';
import { BuiltApprovals } from './services/builtApprovals';
import { Challenges } from './services/challenges';
import { CollectBuilds } from './services/collectBuild';
import { CreatorLaunches } from './services/creatorLaunches';
import { seedDevnet } from './services/devnetSeed';
import { DollarPrices } from './services/dollarPrices';
import { HeadChain } from './services/indexer/headChain';
import { Indexer } from './services/indexer/indexer';
import { Intents } from './services/intents';
import { LaunchImages } from './services/launchImages';
import { LaunchService, type SaltSource } from './services/launchService';
import { LifetimeIncome } from './services/lifetimeIncome';
import { LifetimeWeeks } from './services/lifetimeWeeks';
import { MediaStore, type MediaStoreOptions } from './services/mediaStore';
import { PoolStateService } from './services/poolStateService';
import { Positions } from './services/positions';
import { QuoteService } from './services/quoteService';
import { ReferralRecords } from './services/referralRecords';
import { ReferrerEligibility } from './services/referrerEligibility';
import { ReferrerRegistry } from './services/referrerRegistry';
import { Sessions } from './services/sessions';
import { SettingsService } from './services/settingsService';
import type { SigningConfirmer } from './services/signingConfirmer';
import { serviceSigningReads } from './services/signingPolicy';
import { TokenMarket } from './services/tokenMarket';
import { TokenRegistry } from './services/tokenRegistry';
import { connectKeyWorker, type KeyWorkerLauncher } from './signer/keyWorker/keyWorker';
import { forkKeyWorker } from './signer/keyWorker/keyWorkerLaunchers';
import type { KeyCipher } from './signer/localKey/keyCipher';
import type { LedgerAccess } from './signer/signers';
import { DevnetJournal } from './store/devnetJournal';
import { IndexStore } from './store/indexStore';
import { type Db, openDatabase } from './store/openDatabase';
import { othersLogoCids } from './store/othersLogos';
import { WatchlistStore } from './store/watchlistStore';

/** Confirmations on BSC before a block's events are served: fast finality makes deeper reorganizations rare. */
export const DEFAULT_CONFIRMATIONS = 3;

export interface ServiceOptions {
  /** 0 picks a free port. */
  port: number;
  dataDir: string;
  network: NetworkName;
  /** testnet and mainnet: the RPC the service reads the chain through; fork: the RPC of the chain to fork. */
  rpcUrl?: string;
  /** On `fork`: the block to fork at ('latest' for the source's head); by default the last rehearsal is resumed. */
  forkBlock?: bigint | 'latest';
  /** Built web UI to serve at `/`. */
  webRoot?: string;
  /** Per-client limits per minute (the spec's by default); false switches them off. */
  rateLimits?: RateLimits | false;
  /** Seeds a fresh devnet with launches and trades (default true); tests that need an empty chain turn it off. */
  seed?: boolean;
  /** The most gas one launch may use (EIP-7825's cap by default); tests lower it to reach TOO_MUCH_GAS. */
  maxTxGas?: bigint;
  /** Where launch salts come from (random by default); tests replay a salt whose pool someone priced first. */
  launchSalts?: SaltSource;
  /** Blocks on top of a block before its events are indexed and served; 0 on the devnet and forks, 3 elsewhere. */
  confirmations?: number;
  /** Largest block range of one eth_getLogs of the indexer (2,000 by default). */
  indexRange?: number;
  /** The wall clock (Unix ms) for challenges and keys; tests move it to reach expiries. */
  now?: () => number;
  /** The lifetime share's weekly cap per referrer (10 BNB by default); tests lower it to reach the backlog. */
  lifetimeWeeklyCapWei?: bigint;
  /** API keys on this server (default true); false answers KEYS_OFF. */
  keys?: boolean;
  /** Folder of deployment records for testnet and mainnet; defaults to ./deployments. */
  deploymentsDir?: string;
  /**
   * Serves the app's channel to main (signers, sending, activity) at /app for the headless web UI, answered only with
   * this token. The desktop app uses IPC instead and leaves it out. Either way the run has a token (this one, or a
   * random one) with which the app's own UI proves it is the app on prepared requests.
   */
  appToken?: string;
  /** How long one RPC request may take before it counts as failed (viem's 10 s by default); tests shorten it. */
  rpcTimeoutMs?: number;
  /** The devnet runs with BSC's fee settings: base fee 0, and transactions under 0.05 gwei refused. */
  bscFees?: boolean;
  /**
   * Devnet and fork: a block every this many milliseconds whether or not anything was sent, holding the mempool by
   * priority fee then arrival (BSC: 750). 0, the default, mines each transaction at once in a block of its own.
   */
  blockTimeMs?: number;
  /**
   * A block builder's private RPC (http or https): the app's own launches are sent there instead of the RPC, so they
   * never wait in the public mempool; reads, approvals and receipts stay on the RPC. A refusal fails the send.
   */
  privateRpcUrl?: string;
  /** With `privateRpcUrl`: the app's buys and sells go there too. */
  privateTrades?: boolean;
  /** Where the Settings screen saves choices for the next start (none when absent). */
  settingsFile?: string;
  /**
   * Whether the indexer's look at other people's launches fetches their metadata and logos: the person's choice.
   * Absent: not chosen yet, so off, and the app's UI asks once. Each fetch shows this machine's IP address to whoever
   * launched.
   */
  thirdPartyFetches?: boolean;
  /**
   * The public base of shared referral links: an https:// site serving the app's pages, or the app's own scheme
   * (DEFAULT_PUBLIC_LINK_BASE, the default). Never this machine's loopback address.
   */
  publicLinkBase?: string;
  /** Media store settings tests change: loopback links, the host resolver, the size cap, background deadlines. */
  media?: Pick<
    MediaStoreOptions,
    | 'allowLoopbackLinks'
    | 'resolveHost'
    | 'maxTotalBytes'
    | 'othersBytes'
    | 'backgroundFetchTimeoutMs'
    | 'backgroundMaxInProgress'
    | 'fetchTimeoutMs'
  >;
  /** How the local key is sealed (a passphrase keystore by default; the OS keychain in the desktop app). */
  keyCipher?: KeyCipher;
  /**
   * How the process that holds the unlocked local key starts: a Node child process by default (headless, tests);
   * Electron's utilityProcess in the desktop app.
   */
  keyWorker?: KeyWorkerLauncher;
  /** The Ledger (the real one over USB HID by default); tests give an emulator. */
  ledger?: LedgerAccess;
  /**
   * Where the person confirms what main warns about before it signs: the desktop app passes its native dialog.
   * Headless (the default) the review's ticks count only with `allowWarnedSigning`; otherwise such requests are refused.
   */
  signingConfirmer?: SigningConfirmer;
  allowWarnedSigning?: boolean;
  /** The most per gas main signs for; DEFAULT_MAX_GAS_PRICE_WEI (10 gwei) unless set. */
  maxGasPriceWei?: bigint;
  /** The run's logger; each part logs on a child of it (its `component`). Plain lines on stderr by default. */
  logger?: Logger;
  /** GET /events' keep-alive, slow-client and size settings (tests shorten them). */
  eventStream?: EventStreamOptions;
  /** The file the logger writes to, shown in Settings so a person can attach it to a bug report; none when absent. */
  logFile?: string | null;
  /** Sees every HTTP answer as it is written; tests hold each one to the OpenAPI document with it. */
  checkAnswers?: AnswerCheck;
}

export interface RunningService {
  /** The API root, e.g. http://127.0.0.1:8787/api/v1 */
  url: string;
  /** e.g. http://127.0.0.1:8787 */
  origin: string;
  /** The connected chain (with the devnet, when embedded). */
  chain: ChainContext;
  /** The launch indexer: its status, and `waitFor(block)` to know a block's events are served. */
  indexer: Indexer;
  /** GET /events' streams (how many are open). */
  events: EventStream;
  /**
   * The run's token: the app's own UI sends it to act as the app on prepared requests (x-app-token), and the headless
   * /app channel, when served, answers only it.
   */
  appToken: string;
  /** What the app's own UI asks main: signers, sending, the activity list (over IPC, or /app headless). */
  appChannel: AppChannel;
  /** Settles once a fresh devnet's seed launches and trades are in (at once when there is nothing to seed). */
  seeded: Promise<void>;
  /** The media store: its two spaces (the person's own, and the cache of other people's logos) and what they hold. */
  media: MediaStore;
  /** The look for other people's logos: `settled()` once no pass is under way. */
  images: Pick<LaunchImages, 'settled'>;
  /** The app's notifications: the desktop app shows each one it raises (`listen`). */
  alerts: Alerts;
  close(): Promise<void>;
}

export interface Services extends AppDeps {
  images: LaunchImages;
  /** The blocks at the head above the confirmed one, for GET /events' head events; null with 0 confirmations. */
  headChain: HeadChain | null;
  /** The approval steps the builds made, which main's last guard alone lets through. */
  builtApprovals: BuiltApprovals;
  prices: DollarPrices;
}

/**
 * Builds every service over a connected chain and an open database, as the running app wires them. Nothing starts
 * until asked: `indexer.start()` follows the chain.
 */
export function composeServices(
  chain: ChainContext,
  db: Db,
  options: Omit<
    ServiceOptions,
    'port' | 'rpcUrl' | 'seed' | 'deploymentsDir' | 'logger' | 'privateRpcUrl' | 'privateTrades'
  > & {
    logger: Logger;
  },
): Services {
  const { logger } = options;
  const index = new IndexStore(db);
  const prices = new DollarPrices(chain, (block) => index.priceAt(block));
  const media = new MediaStore({
    dataDir: options.dataDir,
    // The devnet's launches and tests point at servers on this machine; no other network may.
    allowLoopbackLinks: options.network === 'devnet' || chain.fork?.sourceNetwork === 'devnet',
    // Off until the person chooses: each fetch shows this machine's IP address to whoever launched.
    thirdPartyFetches: options.thirdPartyFetches ?? false,
    earlierOthers: () => othersLogoCids(db),
    ...options.media,
  });
  const images = new LaunchImages(db, media, logger.child({ component: 'media' }));
  media.refetchMissingWith((cid) => images.fetchAgain(cid));
  const confirmations = options.confirmations ?? (chain.devnet ? 0 : DEFAULT_CONFIRMATIONS);
  const stream = new EventStream(
    index,
    () => indexer.indexedHead(),
    options.eventStream,
    confirmations > 0 ? (confirmed) => headChain?.blocksAbove(confirmed) ?? [] : null,
  );
  const indexer = new Indexer(chain, index, {
    confirmations,
    // BSC's fast finality where the node answers the `finalized` tag; the embedded EVM (devnet, fork) confirms every
    // block at once.
    finalized: !chain.devnet,
    ...(options.indexRange ? { maxRange: options.indexRange } : {}),
    log: logger.child({ component: 'indexer' }),
    priceAt: (block) => prices.sqrtPriceAt(block),
    dollarPool: () => prices.dollarPool(),
    onBatch: (_cursor, events) => {
      stream.notify();
      if (events > 0) void alerts.indexed();
      if (events > 0) images.poke();
      weeks.poke();
    },
    onRollBack: (cursor) => {
      stream.rolledBack(cursor.block);
      alerts.rolledBack(cursor.block);
      headChain?.poke();
    },
  });
  // With 0 confirmations every block is confirmed as it is made: nothing is ever at the head unconfirmed.
  const headChain =
    confirmations > 0
      ? new HeadChain(chain, {
          confirmed: () => indexer.indexedHead(),
          onChange: () => stream.notify(),
          // A launch at the head is what a sniper buys next: its token and pool are read while the event goes out.
          onLaunches: (heard) => {
            for (const launch of heard) {
              tokens
                .get(launch.token)
                .then((facts) => quotes.poolOf(facts))
                .catch(() => {});
            }
          },
          log: logger.child({ component: 'indexer' }),
        })
      : null;
  const now = options.now ?? Date.now;
  const challenges = new Challenges(db, chain.chainId, now);
  const keys = new ApiKeys(db, options.keys ?? true, now);
  const referrers = new ReferrerRegistry(db, now);
  const sessions = new Sessions(db, now);
  const intents = new Intents(db, chain, now, (intent) => alerts.requestMade(intent));
  const settings = new SettingsService(chain);
  // A launch heard at the head is quoted and built from its log, as the index will have it: a bot buying it at once
  // waits for no reads of the token and its pool, and its pool is read from its birth.
  const tokens = new TokenRegistry(chain, {
    launch: (token) => index.launch(token) ?? headChain?.launchOf(token) ?? null,
  });
  const quotes = new QuoteService(new PoolStateService(chain), settings, prices);
  const eligibility = new ReferrerEligibility(chain, referrers, {
    isCreator: (wallet) => index.isCreator(wallet),
    indexedBlock: () => indexer.indexedBlock(),
  });
  const builtApprovals = new BuiltApprovals();
  const builds = new BuildService(chain, quotes, eligibility, builtApprovals);
  const launches = new LaunchService(
    chain,
    settings,
    media,
    options.maxTxGas,
    prices,
    options.launchSalts,
    builtApprovals,
  );
  const income = new LifetimeIncome(chain, tokens, prices);
  const weeks = new LifetimeWeeks(
    db,
    chain,
    () => indexer.indexedHead(),
    settings,
    income,
    options.lifetimeWeeklyCapWei ?? LIFETIME_WEEKLY_CAP_WEI,
    logger.child({ component: 'referrals' }),
  );
  const market = new TokenMarket(chain, index, { pools: quotes, prices });
  const watchlist = new WatchlistStore(db, now);
  const alerts = new Alerts(watchlist, {
    index,
    indexedBlock: () => indexer.indexedBlock(),
    tokens,
    market,
    prices,
    wbnb: chain.addresses.wbnb,
    log: logger.child({ component: 'alerts' }),
    now,
  });
  const positions = new Positions({
    trades: (wallet) => index.walletTrades(wallet),
    tokenTrades: (token, limit) => index.tradesOf(token, limit),
    image: (token) => index.launch(token)?.image ?? null,
    now,
    tokens,
    pools: quotes,
    prices,
    chain,
  });
  const collects = new CollectBuilds({ chain, tokens, prices });
  const creators = new CreatorLaunches({ index, tokens, prices, chain });
  // Earnings windows (24 h, 7 days, active in 30 days) are measured against trades' block times: the chain's clock,
  // which a rehearsal may have moved ahead of the wall clock.
  const chainNowMs = () => chainClockMs(chain.devnet, now());
  const referralRecords = new ReferralRecords(
    db,
    settings,
    referrers,
    eligibility,
    tokens,
    prices,
    income,
    weeks,
    chainNowMs,
  );
  return {
    chain,
    prices,
    settings,
    tokens,
    quotes,
    builds,
    launches,
    media,
    index,
    indexer,
    headChain,
    images,
    challenges,
    keys,
    referrers,
    sessions,
    intents,
    referralRecords,
    weeks,
    market,
    positions,
    collects,
    creators,
    watchlist,
    alerts,
    events: stream,
    builtApprovals,
    ...(options.rateLimits !== undefined ? { rateLimits: options.rateLimits } : {}),
    ...(options.webRoot ? { webRoot: options.webRoot } : {}),
    log: logger.child({ component: 'http' }),
  };
}

/**
 * The composition root shared by the desktop app and the headless entry: opens the data directory, connects the
 * chain (starting the devnet if asked), and serves the HTTP API on 127.0.0.1 only. Resolves once the API answers.
 */
export async function startService(options: ServiceOptions): Promise<RunningService> {
  // First, before the work of starting can bring on a major collection: see holdTickRecordShape.
  holdTickRecordShape();
  const logger = options.logger ?? createLogger({ level: 'info', stream: process.stderr });
  const linkBaseProblem = options.publicLinkBase === undefined ? null : publicLinkBaseProblem(options.publicLinkBase);
  if (linkBaseProblem) throw new Error(`publicLinkBase: ${linkBaseProblem}`);
  mkdirSync(options.dataDir, { recursive: true });
  const db = openDatabase(join(options.dataDir, 'app.sqlite'));
  let chain: Awaited<ReturnType<typeof connectChain>> | undefined;
  let indexer: Indexer | undefined;
  // Started at the first import or unlock, not before: a run without a local key has no key worker.
  const keyWorker = connectKeyWorker(options.keyWorker ?? forkKeyWorker());
  try {
    chain = await connectChain({
      network: options.network,
      ...(options.rpcUrl ? { rpcUrl: options.rpcUrl } : {}),
      deploymentsDir: options.deploymentsDir ?? join(process.cwd(), 'deployments'),
      journal: new DevnetJournal(db),
      log: logger,
      ...(options.now ? { now: options.now } : {}),
      ...(options.rpcTimeoutMs ? { rpcTimeoutMs: options.rpcTimeoutMs } : {}),
      ...(options.forkBlock !== undefined ? { forkBlock: options.forkBlock } : {}),
      forkCacheDir: join(options.dataDir, 'fork-cache'),
      ...(options.bscFees ? { bscFees: true } : {}),
      ...(options.blockTimeMs ? { blockTimeMs: options.blockTimeMs } : {}),
    });
    const services = composeServices(chain, db, { ...options, logger });
    const {
      indexer: startedIndexer,
      headChain,
      media,
      launches,
      builds,
      tokens,
      images,
      weeks,
      builtApprovals,
      prices,
      quotes,
    } = services;
    indexer = startedIndexer;
    const appChannel = composeAppChannel(chain, db, {
      dataDir: options.dataDir,
      builtApprovals,
      prices,
      applyThirdPartyFetches: (on) => {
        media.setFetchesThirdParty(on);
        if (on) images.resumeHeld();
      },
      info: {
        rpcUrl: options.rpcUrl ?? null,
        rateLimits: options.rateLimits !== false,
        thirdPartyFetches: options.thirdPartyFetches ?? false,
        thirdPartyFetchesChosen: options.thirdPartyFetches !== undefined,
        publicLinkBase: options.publicLinkBase ?? DEFAULT_PUBLIC_LINK_BASE,
        settingsFile: options.settingsFile ?? null,
        logFile: options.logFile ?? null,
      },
      ...(options.privateRpcUrl
        ? {
            privateRpc: {
              url: options.privateRpcUrl,
              trades: options.privateTrades ?? false,
              ...(options.rpcTimeoutMs ? { timeoutMs: options.rpcTimeoutMs } : {}),
            },
          }
        : {}),
      ...(options.keyCipher ? { keyCipher: options.keyCipher } : {}),
      keyWorker,
      ...(options.ledger ? { ledger: options.ledger } : {}),
      ...(options.now ? { now: options.now } : {}),
      onActivitySettled: (entry) => services.alerts.activityChanged(entry),
      signingReads: serviceSigningReads(chain, quotes, tokens),
      ...(options.signingConfirmer ? { confirmer: options.signingConfirmer } : {}),
      ...(options.allowWarnedSigning ? { allowWarnedSigning: true } : {}),
      ...(options.maxGasPriceWei !== undefined ? { maxGasPriceWei: options.maxGasPriceWei } : {}),
      log: logger,
    });
    let origin = '';
    const appToken = options.appToken ?? randomBytes(24).toString('base64url');
    const deps: AppDeps = {
      ...services,
      appToken,
      ...(options.publicLinkBase ? { publicLinkBase: options.publicLinkBase } : {}),
      ...(options.appToken
        ? { appChannel: { channel: appChannel, token: options.appToken, origin: () => origin } }
        : {}),
    };
    const server = await listenApi(createApp(deps).fetch, options.port, leanRoutes(deps), {
      checkAnswers: options.checkAnswers,
    });
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    media.setOrigin(origin);
    // Before the indexer: each new block is read at the head first, since a bot waits for that, not for the index.
    headChain?.start();
    services.alerts.start();
    indexer.start();
    // Logos left unresolved by an earlier run are looked for at once, not only when new launches come.
    images.poke();
    const devnet = chain.devnet;
    const devnetLog = logger.child({ component: 'devnet' });
    // A fresh devnet (not a fork) is seeded in the background: the API answers at once, the data follows within a second.
    const seeded =
      devnet && !devnet.fork && options.seed !== false && devnet.replay.blocks === 0
        ? seedDevnet({ ...chain, devnet }, { launches, builds, media, tokens }, devnetLog).catch((error: Error) =>
            devnetLog.error(`devnet: the seed failed: ${error.message}`),
          )
        : Promise.resolve();
    const url = `${origin}/api/v1`;
    const answer = await fetch(`${url}/errors`);
    if (!answer.ok) throw new Error(`the API did not answer on ${url} (status ${answer.status})`);
    const connected = chain;
    const running = indexer;
    return {
      url,
      origin,
      chain: connected,
      indexer: running,
      events: services.events,
      appChannel,
      appToken,
      seeded,
      media,
      images,
      alerts: services.alerts,
      close: async () => {
        await seeded;
        await headChain?.stop();
        await running.stop();
        services.events.close();
        await images.stop();
        await weeks.stop();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await connected.close();
        keyWorker.close();
        db.close();
      },
    };
  } catch (error) {
    keyWorker.close();
    await indexer?.stop();
    await chain?.close();
    db.close();
    throw error;
  }
}
