import { type Address, formatUnits } from 'viem';
import type { Db } from '../store/openDatabase';
import type { DollarPrices, DollarRate } from './dollarPrices';
import { LifetimeIncome } from './lifetimeIncome';
import type { LifetimeWeeks } from './lifetimeWeeks';
import type { ReferrerEligibility } from './referrerEligibility';
import type { ReferrerRegistry } from './referrerRegistry';
import type { SettingsService } from './settingsService';
import type { Currency, TokenRegistry } from './tokenRegistry';

/** A referrer is active while a trade through them happened within this many days. */
const ACTIVE_DAYS = 30;

const DAY = 24 * 60 * 60;
const WINDOWS = { h24: DAY, d7: 7 * DAY, d30: 30 * DAY, all: Number.POSITIVE_INFINITY } as const;

interface CurrencyTotal {
  currency: Currency;
  wei: string;
  amount: string;
  trades: number;
}

interface Earnings {
  /** Dollars of the priced currencies, each cut at its trade's price. */
  usd: number;
  /** Currencies with no dollar price (neither BNB nor USDT). */
  unpriced: CurrencyTotal[];
  byCurrency: (CurrencyTotal & { usd: number | null })[];
}

interface TradeRow {
  pair: Address;
  fee: string;
  cut: string;
  block: number;
  timestamp: number;
}

/**
 * The spec's Referrer record, computed from the index: eligibility, links, rates, the instant cuts earned (in each
 * currency and in dollars at each trade's price) and the lifetime side (wallets bound, what the vault paid, today's
 * estimate, the referrer's own binding).
 */
export class ReferralRecords {
  private readonly statements;

  constructor(
    db: Db,
    private readonly settings: SettingsService,
    private readonly registry: ReferrerRegistry,
    private readonly eligibility: ReferrerEligibility,
    private readonly tokens: TokenRegistry,
    private readonly prices: DollarPrices,
    private readonly income: LifetimeIncome,
    private readonly weeks: LifetimeWeeks,
    private readonly now: () => number = Date.now,
  ) {
    this.statements = {
      referred: db.prepare(
        'SELECT pair, fee, cut, block, timestamp FROM trades WHERE referrer = ? ORDER BY block, log_index',
      ),
      bound: db.prepare('SELECT count(*) FROM bindings WHERE referrer = ?').pluck(),
      boundTo: db.prepare('SELECT referrer FROM bindings WHERE wallet = ?').pluck(),
      paid: db.prepare('SELECT amount FROM referral_claims WHERE referrer = ?').pluck(),
      // Trades of wallets bound to the referrer, made after the binding (the binding trade itself included).
      boundTrades: db.prepare(
        `SELECT t.pair, t.fee, t.cut, t.block, t.timestamp FROM trades t JOIN bindings b ON b.wallet = t.trader
         WHERE b.referrer = ? AND (t.block > b.block OR (t.block = b.block AND t.log_index > b.log_index))
           AND t.timestamp >= ? ORDER BY t.block, t.log_index`,
      ),
    };
  }

  async record(address: Address, linkBase: string) {
    const nowSeconds = Math.floor(this.now() / 1000);
    const settings = await this.settings.get();
    const registered = this.registry.registeredAt(address) !== null;
    const eligible = await this.eligibility.isEligible(address);
    const trades = this.statements.referred.all(address) as TradeRow[];
    const lastTrade = trades[trades.length - 1];
    const within = (seconds: number) => this.earnings(trades.filter((t) => t.timestamp > nowSeconds - seconds));
    const [h24, d7, d30, all] = await Promise.all([
      within(WINDOWS.h24),
      within(WINDOWS.d7),
      within(WINDOWS.d30),
      within(WINDOWS.all),
    ]);
    const earnings = { h24, d7, d30, all };
    const referred = this.statements.bound.get(address) as number;
    const dayStart = nowSeconds - (nowSeconds % DAY);
    const today = this.statements.boundTrades.all(address, dayStart) as TradeRow[];
    const closed = this.weeks.weeksOf(address, nowSeconds);
    const paid = (this.statements.paid.all(address) as string[]).reduce((sum, amount) => sum + BigInt(amount), 0n);
    return {
      address,
      eligible,
      registered,
      active: eligible && lastTrade !== undefined && lastTrade.timestamp > nowSeconds - ACTIVE_DAYS * DAY,
      links: {
        base: `${linkBase}/?r=${address}`,
        token: `${linkBase}/token/{token}?r=${address}`,
        launch: `${linkBase}/launch?r=${address}`,
      },
      rates: { instantBps: settings.fees.referrerBps, lifetimeShareBps: settings.fees.lifetimeReferralBps },
      instant: { earnings },
      lifetime: {
        referred,
        weeklyCapWei: this.weeks.weeklyCapWei.toString(),
        allTimePaidWei: paid.toString(),
        todayEstimateWei:
          referred === 0
            ? null
            : LifetimeIncome.share(await this.income.inBnb(today), settings.fees.lifetimeReferralBps).toString(),
        backlog: closed.backlog,
        claimableWeeks: closed.weeks,
        boundTo: (this.statements.boundTo.get(address) as Address | undefined) ?? null,
      },
    };
  }

  private async earnings(trades: readonly TradeRow[]): Promise<Earnings> {
    const byPair = new Map<Address, { wei: bigint; trades: number; usdCents: bigint; priced: boolean }>();
    for (const trade of trades) {
      const entry = byPair.get(trade.pair) ?? { wei: 0n, trades: 0, usdCents: 0n, priced: true };
      const cut = BigInt(trade.cut);
      entry.wei += cut;
      entry.trades++;
      const currency = await this.tokens.currency(trade.pair);
      const rate = await this.prices.rate(trade.pair, currency.decimals, BigInt(trade.block));
      if (rate) entry.usdCents += centsOf(cut, rate);
      else entry.priced = false;
      byPair.set(trade.pair, entry);
    }
    const result: Earnings = { usd: 0, unpriced: [], byCurrency: [] };
    let cents = 0n;
    for (const [pair, entry] of byPair) {
      const currency = await this.tokens.currency(pair);
      const total = {
        currency,
        wei: entry.wei.toString(),
        amount: formatUnits(entry.wei, currency.decimals),
        trades: entry.trades,
      };
      result.byCurrency.push({ ...total, usd: entry.priced ? Number(entry.usdCents) / 100 : null });
      if (entry.priced) cents += entry.usdCents;
      else result.unpriced.push(total);
    }
    result.usd = Number(cents) / 100;
    return result;
  }
}

/** Cents of `wei` at a dollar rate, rounded down. */
function centsOf(wei: bigint, rate: DollarRate): bigint {
  return (wei * rate.usdWeiPer * 100n) / rate.pairWeiPer / 10n ** 18n;
}
