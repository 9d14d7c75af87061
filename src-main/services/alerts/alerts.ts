import type { Address } from 'viem';
import type { ActivityEntry } from '../../../src-shared/appChannelTypes';
import { type CrossingState, crossingStep } from '../../core/alerts/crossing';
import { endOfBlock, type StreamPosition } from '../../core/events/streamPosition';
import type { Logger } from '../../log/createLogger';
import type { IndexStore } from '../../store/indexStore';
import {
  ALERT_KINDS,
  type AlertCurrency,
  type AlertKind,
  type AlertRule,
  type WatchlistStore,
} from '../../store/watchlistStore';
import type { DollarRate } from '../dollarPrices';
import type { Intent } from '../intents';
import type { TokenMarketState } from '../tokenMarket';
import type { TokenFacts } from '../tokenRegistry';
import { type AlertNote, crossingAlert, launchAlert, requestAlert, transactionAlert } from './alertOf';

/** A notification raised, in the feed the web page reads and main's desktop notifications follow. */
export interface Alert extends AlertNote {
  /** Increasing; a page asks for those after the last it saw. */
  id: number;
  /** Unix ms. */
  at: number;
}

/** What the alerts read: the index's new launches and trades, and a watched token's market in dollars or BNB. */
export interface AlertSources {
  index: Pick<IndexStore, 'streamAfter'>;
  indexedBlock(): number;
  tokens: { get(token: Address): Promise<TokenFacts> };
  market: { of(token: TokenFacts): Promise<TokenMarketState> };
  prices: { rate(pair: Address, decimals: number): Promise<DollarRate | null> };
  wbnb: Address;
  log: Logger;
  now?: () => number;
}

/** Alerts kept for pages that look after a pause; older ones are gone (a page missing them only misses the popup). */
const KEPT = 200;
/** Rows of the index read at once after a batch. */
const PAGE = 500;

/**
 * The app's notifications: what deserves one (alertOf.ts decides), whether its kind is switched on, and the feed of
 * those raised. Fed by the index after each batch (a watched creator's launch, a watched token's trades checked
 * against its rule), by new prepared requests and by the person's settled transactions. The desktop app shows each as
 * Electron's Notification (`listen`); the web page reads the same feed (`after`) and shows it with the browser's.
 */
export class Alerts {
  private readonly feed: Alert[] = [];
  private readonly listeners = new Set<(alert: Alert) => void>();
  /** Starts past the ids a page of an earlier run may hold, so its `after` never hides this run's. */
  private lastId: number;
  private position: StreamPosition | null = null;
  private reading: Promise<void> = Promise.resolve();
  private readonly now: () => number;

  constructor(
    private readonly watchlist: WatchlistStore,
    private readonly sources: AlertSources,
  ) {
    this.now = sources.now ?? Date.now;
    this.lastId = this.now();
  }

  /** The newest id raised (or the start's): a page that opens asks for what comes after it. */
  latest(): number {
    return this.lastId;
  }

  /** Alerts raised after `id`, oldest first. */
  after(id: number): Alert[] {
    return this.feed.filter((alert) => alert.id > id);
  }

  /** Calls `listener` with every alert raised from now on; returns how to stop. */
  listen(listener: (alert: Alert) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  kinds(): Record<AlertKind, boolean> {
    const off = this.watchlist.kindsOff();
    return Object.fromEntries(ALERT_KINDS.map((kind) => [kind, !off.has(kind)])) as Record<AlertKind, boolean>;
  }

  switchKinds(kinds: Partial<Record<AlertKind, boolean>>): Record<AlertKind, boolean> {
    for (const kind of ALERT_KINDS) {
      const on = kinds[kind];
      if (on !== undefined) this.watchlist.switchKind(kind, on);
    }
    return this.kinds();
  }

  /** A new prepared request. */
  requestMade(intent: Intent): void {
    this.raise(requestAlert(intent));
  }

  /** An activity entry that changed. */
  activityChanged(entry: ActivityEntry): void {
    this.raise(transactionAlert(entry));
  }

  /**
   * The index stored a batch: its launches and trades after what was last read, in chain order. Started at the indexed
   * block on the first call, so what was indexed before this run raises nothing. Batches are read one after another.
   */
  indexed(): Promise<void> {
    this.reading = this.reading
      .then(() => this.readIndex())
      .catch((error: unknown) => {
        this.sources.log.warn(`alerts: the index could not be read: ${(error as Error).message}`);
      });
    return this.reading;
  }

  /** From here on: what the index holds already raises nothing; what it stores next is looked at. */
  start(): void {
    this.position ??= endOfBlock(this.sources.indexedBlock());
  }

  /** The index rolled back to `block` (a reorganization): what is indexed again above it is read again. */
  rolledBack(block: number): void {
    if (this.position !== null && this.position.block > block) this.position = endOfBlock(block);
  }

  /** Settles once every batch announced so far has been looked at (tests wait on it). */
  settled(): Promise<void> {
    return this.reading;
  }

  /**
   * Where a token's rule stands now, for a rule just set: its value is looked at once, so a rule set while the value
   * is already past its figure waits for it to come back and cross (`unknown` when the value cannot be read now).
   */
  async firstState(token: Address, rule: AlertRule): Promise<CrossingState> {
    const value = await this.valueOf(token, rule).catch(() => null);
    return value === null ? 'unknown' : crossingStep(rule, 'unknown', value).state;
  }

  private async readIndex(): Promise<void> {
    const to = this.sources.indexedBlock();
    if (this.position === null) {
      this.position = endOfBlock(to);
      return;
    }
    const creators = new Set(this.watchlist.creators().map((watched) => watched.creator));
    const traded = new Set<Address>();
    for (;;) {
      const entries = this.sources.index.streamAfter(this.position, to, PAGE);
      if (entries.length === 0) break;
      for (const entry of entries) {
        if (entry.kind === 'launch') this.raise(launchAlert(entry.launch, creators));
        else traded.add(entry.token);
      }
      this.position = (entries.at(-1) as (typeof entries)[number]).position;
    }
    this.position = endOfBlock(to);
    for (const watched of this.watchlist.tokens()) {
      if (watched.alert && traded.has(watched.token)) await this.check(watched.token);
    }
  }

  /** Looks at a traded token's rule against its market now; fires once per crossing, keeping where it stands. */
  private async check(token: Address): Promise<void> {
    const watched = this.watchlist.token(token);
    if (!watched?.alert) return;
    const rule = watched.alert;
    const value = await this.valueOf(token, rule);
    if (value === null) return;
    const step = crossingStep(rule, rule.state, value);
    if (step.state !== rule.state) this.watchlist.setAlertState(token, step.state);
    if (step.fires) {
      const facts = await this.sources.tokens.get(token);
      this.raise(crossingAlert({ address: token, symbol: facts.symbol }, rule, value));
    }
  }

  /** The rule's figure now (price of one whole token, or cap) in wei of 18 decimals of its currency; null unpriced. */
  private async valueOf(token: Address, rule: AlertRule): Promise<bigint | null> {
    const facts = await this.sources.tokens.get(token);
    const market = await this.sources.market.of(facts);
    const pairWei = rule.metric === 'price' ? market.priceWei : market.marketCapWei;
    return this.inCurrency(pairWei, market.pair, rule.currency);
  }

  private async inCurrency(
    pairWei: bigint,
    pair: { address: Address; decimals: number },
    currency: AlertCurrency,
  ): Promise<bigint | null> {
    if (currency === 'bnb' && pair.address === this.sources.wbnb) return pairWei;
    const rate = await this.sources.prices.rate(pair.address, pair.decimals);
    if (!rate || rate.pairWeiPer === 0n) return null;
    // Dollar wei have 18 decimals, as the rule's figure.
    const usdWei = (pairWei * rate.usdWeiPer) / rate.pairWeiPer;
    if (currency === 'usd') return usdWei;
    const bnb = await this.sources.prices.rate(this.sources.wbnb, 18);
    if (!bnb || bnb.usdWeiPer === 0n) return null;
    return (usdWei * bnb.pairWeiPer) / bnb.usdWeiPer;
  }

  private raise(note: AlertNote | null): void {
    if (note === null || this.watchlist.kindsOff().has(note.kind)) return;
    const alert: Alert = { ...note, id: ++this.lastId, at: this.now() };
    this.feed.push(alert);
    if (this.feed.length > KEPT) this.feed.shift();
    for (const listener of this.listeners) {
      try {
        listener(alert);
      } catch (error) {
        this.sources.log.warn(`alerts: a listener failed: ${(error as Error).message}`);
      }
    }
  }
}
