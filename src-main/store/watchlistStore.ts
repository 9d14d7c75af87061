import { type Address, getAddress } from 'viem';
import type { CrossingDirection, CrossingState } from '../core/alerts/crossing';
import type { Db } from './openDatabase';

/** What an alert rule watches: the price of one whole token, or the market cap. */
export type AlertMetric = 'price' | 'cap';
/** The currency of the rule's figure: dollars, or BNB. */
export type AlertCurrency = 'usd' | 'bnb';
/** The kinds of notification the person can switch off. */
export const ALERT_KINDS = ['request', 'launch', 'crossing', 'transaction'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

export interface AlertRule {
  metric: AlertMetric;
  direction: CrossingDirection;
  currency: AlertCurrency;
  /** Wei of 18 decimals of `currency`. */
  figure: bigint;
}

export interface WatchedToken {
  token: Address;
  addedAt: number;
  alert: (AlertRule & { state: CrossingState }) | null;
}

export interface WatchedCreator {
  creator: Address;
  addedAt: number;
}

interface TokenRow {
  token: Address;
  added_at: number;
  alert_metric: AlertMetric | null;
  alert_direction: CrossingDirection | null;
  alert_currency: AlertCurrency | null;
  alert_figure: string | null;
  alert_state: CrossingState | null;
}

function tokenOf(row: TokenRow): WatchedToken {
  const { alert_metric: metric, alert_direction: direction, alert_currency: currency, alert_figure: figure } = row;
  return {
    token: row.token,
    addedAt: row.added_at,
    alert:
      metric && direction && currency && figure !== null
        ? { metric, direction, currency, figure: BigInt(figure), state: row.alert_state ?? 'unknown' }
        : null,
  };
}

/**
 * The starred tokens and creators, the tokens' alert rules and the kinds of notification switched off, in the app's
 * SQLite database: each change is one statement, so a crash or a full disk leaves the list as it was before it.
 */
export class WatchlistStore {
  private readonly sql;

  constructor(
    db: Db,
    private readonly now: () => number = Date.now,
  ) {
    this.sql = {
      tokens: db.prepare('SELECT * FROM watched_tokens ORDER BY added_at, token'),
      token: db.prepare('SELECT * FROM watched_tokens WHERE token = ?'),
      putToken: db.prepare(
        `INSERT INTO watched_tokens (token, added_at, alert_metric, alert_direction, alert_currency, alert_figure, alert_state)
         VALUES (@token, @at, @metric, @direction, @currency, @figure, @state)
         ON CONFLICT (token) DO UPDATE SET alert_metric = @metric, alert_direction = @direction,
           alert_currency = @currency, alert_figure = @figure, alert_state = @state`,
      ),
      alertState: db.prepare('UPDATE watched_tokens SET alert_state = ? WHERE token = ? AND alert_figure IS NOT NULL'),
      dropToken: db.prepare('DELETE FROM watched_tokens WHERE token = ?'),
      creators: db.prepare('SELECT creator, added_at AS addedAt FROM watched_creators ORDER BY added_at, creator'),
      putCreator: db.prepare('INSERT INTO watched_creators (creator, added_at) VALUES (?, ?) ON CONFLICT DO NOTHING'),
      creator: db.prepare('SELECT creator, added_at AS addedAt FROM watched_creators WHERE creator = ?'),
      dropCreator: db.prepare('DELETE FROM watched_creators WHERE creator = ?'),
      kindsOff: db.prepare('SELECT kind FROM alert_kinds_off').pluck(),
      kindOff: db.prepare('INSERT INTO alert_kinds_off (kind) VALUES (?) ON CONFLICT DO NOTHING'),
      kindOn: db.prepare('DELETE FROM alert_kinds_off WHERE kind = ?'),
    };
  }

  tokens(): WatchedToken[] {
    return (this.sql.tokens.all() as TokenRow[]).map(tokenOf);
  }

  token(token: Address): WatchedToken | null {
    const row = this.sql.token.get(getAddress(token)) as TokenRow | undefined;
    return row ? tokenOf(row) : null;
  }

  /** Stars a token (kept where it was in the list when already starred) with its rule, or none; a new rule starts unseen. */
  putToken(token: Address, alert: AlertRule | null, state: CrossingState = 'unknown'): WatchedToken {
    this.sql.putToken.run({
      token: getAddress(token),
      at: this.now(),
      metric: alert?.metric ?? null,
      direction: alert?.direction ?? null,
      currency: alert?.currency ?? null,
      figure: alert?.figure.toString() ?? null,
      state: alert ? state : null,
    });
    return this.token(token) as WatchedToken;
  }

  setAlertState(token: Address, state: CrossingState): void {
    this.sql.alertState.run(state, getAddress(token));
  }

  /** Whether it was starred. */
  dropToken(token: Address): boolean {
    return this.sql.dropToken.run(getAddress(token)).changes > 0;
  }

  creators(): WatchedCreator[] {
    return this.sql.creators.all() as WatchedCreator[];
  }

  putCreator(creator: Address): WatchedCreator {
    this.sql.putCreator.run(getAddress(creator), this.now());
    return this.sql.creator.get(getAddress(creator)) as WatchedCreator;
  }

  dropCreator(creator: Address): boolean {
    return this.sql.dropCreator.run(getAddress(creator)).changes > 0;
  }

  kindsOff(): Set<AlertKind> {
    return new Set(this.sql.kindsOff.all() as AlertKind[]);
  }

  switchKind(kind: AlertKind, on: boolean): void {
    (on ? this.sql.kindOn : this.sql.kindOff).run(kind);
  }
}
