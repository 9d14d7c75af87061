import { type Address, getAddress, type Hex, zeroAddress } from 'viem';
import type { EventPosition, LaunchFacts, LaunchRange, ServiceEvent } from '../chain/serviceEvents';
import { compareStreamPositions, type StreamPosition } from '../core/events/streamPosition';
import type { Db } from './openDatabase';

/** What the indexer follows: a stored index made for anything else is started afresh. */
export interface IndexTarget {
  chainId: number;
  factory: Address;
  router: Address;
  referrals: Address | null;
  fromBlock: number;
}

export interface IndexCursor {
  /** Every event up to and including this block is stored. */
  block: number;
  /** That block's hash; null before the first batch. */
  hash: Hex | null;
}

/** One batch of the chain: the events of blocks (cursor, to], the block times, and the hashes to remember. */
export interface IndexBatch {
  events: readonly ServiceEvent[];
  /** Unix seconds of every block that has events. */
  timestamps: ReadonlyMap<number, number>;
  /** Block hashes to keep for reorg detection; the batch's last block must be among them. */
  hashes: ReadonlyMap<number, Hex>;
  /** The BNB dollar pool's sqrtPriceX96 at blocks with trades, where it could be read. */
  prices?: ReadonlyMap<number, bigint>;
  to: number;
}

/** A launch as stored: the spec's list item plus what the factory was told. */
export interface IndexedLaunch extends Omit<LaunchFacts, 'salt' | 'royaltyTo'>, EventPosition {
  /** Null: royalties go to the creator. */
  royaltyTo: Address | null;
  firstBuy: { spent: bigint; tokens: bigint; siteFee: bigint } | null;
  /** The logo link found in the metadata: null until found, or when there is none. */
  image: string | null;
  /** The block's time, Unix seconds. */
  timestamp: number;
  /** The metadata's checked details, read with the logo: null until then, or when the metadata could not be read. */
  details: LaunchDetails | null;
}

/** The sums of a token's `Collected` events: fees taken from its positions, the royalty paid, tokens burned. */
export interface CollectedTotals {
  pairFees: bigint;
  tokenFees: bigint;
  pairToRoyalty: bigint;
  tokenToRoyalty: bigint;
  tokensBurned: bigint;
}

/** What a launch's metadata says about the token besides its logo (each only when present and valid). */
export interface LaunchDetails {
  description?: string;
  website?: string;
  x?: string;
  telegram?: string;
}

/** A launch as the list shows it. */
export type ListedLaunch = Pick<
  IndexedLaunch,
  | 'token'
  | 'symbol'
  | 'name'
  | 'creator'
  | 'pool'
  | 'pair'
  | 'fee'
  | 'image'
  | 'timestamp'
  | 'txHash'
  | 'block'
  | 'logIndex'
>;

/** A trade as the token page lists it: the router's Trade event, amounts in wei. */
export interface IndexedTrade extends EventPosition {
  /** The block's time, Unix seconds. */
  timestamp: number;
  trader: Address;
  /** Null: no referrer. */
  referrer: Address | null;
  isBuy: boolean;
  pairAmount: bigint;
  tokenAmount: bigint;
  /** The site fee, in the pair currency. */
  fee: bigint;
  /** The launch's first buy, made by the factory for the creator (not a router trade). */
  firstBuy?: boolean;
}

interface TradeRow {
  block: number;
  logIndex: number;
  txHash: Hex;
  timestamp: number;
  trader: Address;
  referrer: Address | null;
  isBuy: number;
  pairAmount: string;
  tokenAmount: string;
  fee: string;
  firstBuy: number;
}

/** What the event stream sends, at its place in the chain. */
export type StreamEntry =
  | { kind: 'launch'; position: StreamPosition; launch: ListedLaunch }
  | { kind: 'trade'; position: StreamPosition; token: Address; trade: IndexedTrade };

interface StreamLaunchRow extends ListedLaunch {
  firstBuySpent: string | null;
  firstBuyTokens: string | null;
  firstBuyFee: string | null;
}

interface StreamTradeRow extends Omit<TradeRow, 'firstBuy'> {
  token: Address;
}

/** A holder of a launched token, as the index has its balance. */
export interface IndexedHolder {
  holder: Address;
  /** Wei of the token, never zero (a holder whose balance comes to zero is no longer one). */
  balance: bigint;
}

export interface IndexCounts {
  launches: number;
  trades: number;
  bindings: number;
  collections: number;
}

/** Hashes kept for reorg detection: deeper reorganizations than this restart the index from the deploy block. */
export const KEPT_BLOCK_HASHES = 512;

/** Where the factory burns: the launch's unplaceable residue, and the royalty's buy-back. */
const DEAD_ADDRESS = '0x000000000000000000000000000000000000dEaD';

const INDEX_TABLES = [
  'launches',
  'trades',
  'bindings',
  'collections',
  'referral_roots',
  'referral_claims',
  'block_prices',
  'index_blocks',
  'first_buy_recipients',
] as const;

/**
 * Balances are sums, not rows of a block: a rollback undoes them from `holder_changes` (kept for the blocks a
 * reorganization can reach) before those rows go, and a restart from the deploy block wipes them whole.
 */
const BALANCE_TABLES = ['holders', 'holder_changes'] as const;

const LAUNCH_COLUMNS = `l.token, l.creator, l.pool, l.pair, l.fee, l.supply, l.opening_tick AS openingTick, l.name,
  l.symbol, l.metadata_uri AS metadataURI, l.royalty_to AS royaltyTo, l.burn_bps AS burnBps, l.ranges,
  l.first_buy_spent AS firstBuySpent, l.first_buy_tokens AS firstBuyTokens, l.first_buy_fee AS firstBuyFee, i.image,
  i.details, l.block, l.log_index AS logIndex,
  l.tx_hash AS txHash, l.timestamp`;
const LAUNCH_FROM = 'launches l LEFT JOIN launch_images i ON i.token = l.token';
/** Only what a list item shows: pages are read often, and every column read costs. */
const LIST_COLUMNS = `l.token, l.symbol, l.name, l.creator, l.pool, l.pair, l.fee, i.image, l.timestamp,
  l.tx_hash AS txHash, l.block, l.log_index AS logIndex`;

interface LaunchRow extends Omit<IndexedLaunch, 'supply' | 'ranges' | 'firstBuy' | 'details'> {
  supply: string;
  ranges: string;
  firstBuySpent: string | null;
  firstBuyTokens: string | null;
  firstBuyFee: string | null;
  details: string | null;
}

function toLaunch(row: LaunchRow): IndexedLaunch {
  const { firstBuySpent, firstBuyTokens, firstBuyFee, supply, ranges, details, ...rest } = row;
  return {
    ...rest,
    supply: BigInt(supply),
    ranges: JSON.parse(ranges) as LaunchRange[],
    firstBuy:
      firstBuySpent !== null && firstBuyTokens !== null
        ? { spent: BigInt(firstBuySpent), tokens: BigInt(firstBuyTokens), siteFee: BigInt(firstBuyFee ?? '0') }
        : null,
    details: details === null ? null : (JSON.parse(details) as LaunchDetails),
  };
}

/**
 * The query of a token's trades, newest first: its router trades and its launch's first buy (no router trade, but the
 * token's first: listed at the launch's place in the chain, as the factory emits FirstBuy just before Launched), each
 * narrowed by its own condition.
 */
function tokenTradesSql(tradeCondition: string, launchCondition = tradeCondition): string {
  return `SELECT block, log_index AS logIndex, tx_hash AS txHash, timestamp, trader, referrer, is_buy AS isBuy,
       pair_amount AS pairAmount, token_amount AS tokenAmount, fee, 0 AS firstBuy
     FROM trades WHERE token = @token ${tradeCondition}
     UNION ALL
     SELECT block, log_index AS logIndex, tx_hash AS txHash, timestamp, creator AS trader, NULL AS referrer,
       1 AS isBuy, first_buy_spent AS pairAmount, first_buy_tokens AS tokenAmount, first_buy_fee AS fee,
       1 AS firstBuy
     FROM launches WHERE token = @token AND first_buy_spent IS NOT NULL AND first_buy_fee IS NOT NULL ${launchCondition}
     ORDER BY block DESC, logIndex DESC LIMIT @limit`;
}

/** A trade row as the API reads it: amounts as bigints, the first buy marked. */
function tradeOf({ isBuy, pairAmount, tokenAmount, fee, firstBuy, ...rest }: TradeRow): IndexedTrade {
  return {
    ...rest,
    ...(firstBuy === 1 ? { firstBuy: true } : {}),
    isBuy: isBuy === 1,
    pairAmount: BigInt(pairAmount),
    tokenAmount: BigInt(tokenAmount),
    fee: BigInt(fee),
  };
}

/**
 * The indexer's tables: batches go in whole with the cursor (one transaction each), reorganized blocks come out whole,
 * and the API's queries read them. Amounts are stored as decimal strings of wei (they do not fit SQLite's integers).
 */
export class IndexStore {
  private readonly statements;
  /** The factory of the index opened: its transfers in a launch's transaction are the first buy going out. */
  private factory: Address | null = null;

  constructor(private readonly db: Db) {
    const prepare = (sql: string) => db.prepare(sql);
    this.statements = {
      state: prepare('SELECT chain_id, factory, router, referrals, from_block, block, hash FROM index_state'),
      setState: prepare(
        `INSERT OR REPLACE INTO index_state (id, chain_id, factory, router, referrals, from_block, block, hash, updated_at)
         VALUES (1, @chainId, @factory, @router, @referrals, @fromBlock, @block, @hash, @now)`,
      ),
      moveCursor: prepare('UPDATE index_state SET block = ?, hash = ?, updated_at = ? WHERE id = 1'),
      keepHash: prepare('INSERT OR REPLACE INTO index_blocks (number, hash) VALUES (?, ?)'),
      keepPrice: prepare('INSERT OR REPLACE INTO block_prices (block, sqrt_price_x96) VALUES (?, ?)'),
      price: prepare('SELECT sqrt_price_x96 FROM block_prices WHERE block = ?').pluck(),
      forgetOldHashes: prepare('DELETE FROM index_blocks WHERE number < ?'),
      recentHashes: prepare('SELECT number, hash FROM index_blocks ORDER BY number DESC'),
      blockHash: prepare('SELECT hash FROM index_blocks WHERE number = ?').pluck(),
      launch: prepare(
        `INSERT INTO launches (token, creator, pool, pair, fee, supply, opening_tick, salt, name, symbol, metadata_uri,
           royalty_to, burn_bps, ranges, first_buy_spent, first_buy_tokens, first_buy_fee, block, log_index, tx_hash,
           timestamp)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      launchImage: prepare("INSERT INTO launch_images (token, state) VALUES (?, 'pending')"),
      trade: prepare(
        `INSERT INTO trades (block, log_index, tx_hash, timestamp, trader, token, referrer, pair, is_buy, pair_amount,
           token_amount, fee, cut)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      binding: prepare(
        `INSERT INTO bindings (wallet, referrer, block, log_index, tx_hash, timestamp)
         VALUES (@wallet, @referrer, @block, @logIndex, @txHash, @timestamp)`,
      ),
      collection: prepare(
        `INSERT INTO collections (block, log_index, tx_hash, timestamp, token, recipient, pair_fees, token_fees,
           pair_to_royalty, token_to_royalty, tokens_burned)
         VALUES (@block, @logIndex, @txHash, @timestamp, @token, @recipient, @pairFees, @tokenFees, @pairToRoyalty,
           @tokenToRoyalty, @tokensBurned)`,
      ),
      root: prepare(
        `INSERT INTO referral_roots (block, log_index, tx_hash, timestamp, week, root, total)
         VALUES (@block, @logIndex, @txHash, @timestamp, @week, @root, @total)`,
      ),
      claim: prepare(
        `INSERT INTO referral_claims (block, log_index, tx_hash, timestamp, referrer, week, amount)
         VALUES (@block, @logIndex, @txHash, @timestamp, @referrer, @week, @amount)`,
      ),
      rollback: INDEX_TABLES.map((table) =>
        prepare(`DELETE FROM ${table} WHERE ${table === 'index_blocks' ? 'number' : 'block'} > ?`),
      ),
      wipe: [...INDEX_TABLES, ...BALANCE_TABLES, 'index_state'].map((table) => prepare(`DELETE FROM ${table}`)),
      newest: prepare(`SELECT ${LIST_COLUMNS} FROM ${LAUNCH_FROM} ORDER BY l.block DESC, l.log_index DESC LIMIT ?`),
      since: prepare(
        `SELECT ${LIST_COLUMNS} FROM ${LAUNCH_FROM} WHERE l.block > ? ORDER BY l.block, l.log_index LIMIT ?`,
      ),
      inBlock: prepare(`SELECT ${LIST_COLUMNS} FROM ${LAUNCH_FROM} WHERE l.block = ? ORDER BY l.log_index`),
      byToken: prepare(`SELECT ${LAUNCH_COLUMNS} FROM ${LAUNCH_FROM} WHERE l.token = ?`),
      tradesOf: prepare(tokenTradesSql('')),
      // The same, of one wallet (the creator for a first buy).
      walletTradesOf: prepare(tokenTradesSql('AND trader = @wallet', 'AND creator = @wallet')),
      // Every trade of a wallet, of every token, in chain order: what its positions are made of.
      walletTrades: prepare(
        `SELECT block, log_index AS logIndex, tx_hash AS txHash, timestamp, trader, token, referrer, is_buy AS isBuy,
           pair_amount AS pairAmount, token_amount AS tokenAmount, fee, 0 AS firstBuy
         FROM trades WHERE trader = @wallet
         UNION ALL
         SELECT block, log_index AS logIndex, tx_hash AS txHash, timestamp, creator AS trader, token,
           NULL AS referrer, 1 AS isBuy, first_buy_spent AS pairAmount, first_buy_tokens AS tokenAmount,
           first_buy_fee AS fee, 1 AS firstBuy
         FROM launches WHERE creator = @wallet AND first_buy_spent IS NOT NULL AND first_buy_fee IS NOT NULL
         ORDER BY block, logIndex`,
      ),
      // The event stream's reads: launches from a place on (a launch's first buy is part of its row), trades after it,
      // both up to an indexed block, in chain order. Row values use the (block, log_index) indexes.
      streamLaunches: prepare(
        `SELECT ${LIST_COLUMNS}, l.first_buy_spent AS firstBuySpent, l.first_buy_tokens AS firstBuyTokens,
           l.first_buy_fee AS firstBuyFee
         FROM ${LAUNCH_FROM} WHERE (l.block, l.log_index) >= (?, ?) AND l.block <= ?
         ORDER BY l.block, l.log_index LIMIT ?`,
      ),
      streamTrades: prepare(
        `SELECT block, log_index AS logIndex, tx_hash AS txHash, timestamp, trader, token, referrer, is_buy AS isBuy,
           pair_amount AS pairAmount, token_amount AS tokenAmount, fee
         FROM trades WHERE (block, log_index) > (?, ?) AND block <= ? ORDER BY block, log_index LIMIT ?`,
      ),
      isCreator: prepare('SELECT 1 FROM launches WHERE creator = ? LIMIT 1').pluck(),
      tokens: prepare('SELECT token FROM launches ORDER BY block, log_index').pluck(),
      balance: prepare('SELECT balance FROM holders WHERE token = ? AND holder = ?').pluck(),
      setBalance: prepare('INSERT OR REPLACE INTO holders (token, holder, balance) VALUES (?, ?, ?)'),
      dropHolder: prepare('DELETE FROM holders WHERE token = ? AND holder = ?'),
      balanceChange: prepare('INSERT INTO holder_changes (block, token, holder, delta) VALUES (?, ?, ?, ?)'),
      forgetOldChanges: prepare('DELETE FROM holder_changes WHERE block <= ?'),
      changesAfter: prepare('SELECT token, holder, delta FROM holder_changes WHERE block > ?'),
      dropChangesAfter: prepare('DELETE FROM holder_changes WHERE block > ?'),
      wipeBalances: BALANCE_TABLES.map((table) => prepare(`DELETE FROM ${table}`)),
      firstBuyRecipient: prepare(
        'INSERT OR REPLACE INTO first_buy_recipients (token, wallet, tokens, block) VALUES (?, ?, ?, ?)',
      ),
      firstBuyRecipients: prepare('SELECT wallet FROM first_buy_recipients WHERE token = ? ORDER BY wallet').pluck(),
      holderCount: prepare('SELECT count(*) FROM holders WHERE token = ?').pluck(),
      // Decimal strings without leading zeros order as numbers by length, then text: the index holders_top holds them
      // in that order, so the top of a token's holders is read without a sort.
      topHolders: prepare(
        `SELECT holder, balance FROM holders WHERE token = ?
         ORDER BY length(balance) DESC, balance DESC LIMIT ?`,
      ),
      byCreator: prepare(
        `SELECT ${LAUNCH_COLUMNS} FROM ${LAUNCH_FROM} WHERE l.creator = ? ORDER BY l.block DESC, l.log_index DESC`,
      ),
      collectionsOf: prepare(
        `SELECT pair_fees AS pairFees, token_fees AS tokenFees, pair_to_royalty AS pairToRoyalty,
           token_to_royalty AS tokenToRoyalty, tokens_burned AS tokensBurned
         FROM collections WHERE token = ? ORDER BY block, log_index`,
      ),
      counts: prepare(
        `SELECT (SELECT count(*) FROM launches) AS launches, (SELECT count(*) FROM trades) AS trades,
           (SELECT count(*) FROM bindings) AS bindings, (SELECT count(*) FROM collections) AS collections`,
      ),
    };
  }

  /**
   * The cursor of the index made for `target`. A stored index of another chain or deployment is wiped first, and a
   * fresh one starts just before the deploy block.
   */
  open(target: IndexTarget): IndexCursor {
    this.factory = target.factory;
    const stored = this.statements.state.get() as
      | {
          chain_id: number;
          factory: string;
          router: string;
          referrals: string | null;
          from_block: number;
          block: number;
          hash: Hex | null;
        }
      | undefined;
    if (
      stored &&
      stored.chain_id === target.chainId &&
      stored.factory === target.factory &&
      stored.router === target.router &&
      stored.referrals === target.referrals &&
      stored.from_block === target.fromBlock
    ) {
      return { block: stored.block, hash: stored.hash };
    }
    const fresh = { block: target.fromBlock - 1, hash: null };
    this.db.transaction(() => {
      for (const statement of this.statements.wipe) statement.run();
      this.statements.setState.run({ ...target, ...fresh, now: Date.now() });
    })();
    return fresh;
  }

  /** Stores a batch and moves the cursor to its last block, all in one transaction: it is in whole or not at all. */
  write(batch: IndexBatch): IndexCursor {
    const s = this.statements;
    const hash = batch.hashes.get(batch.to);
    if (!hash) throw new Error(`the batch to block ${batch.to} does not carry that block's hash`);
    this.db.transaction(() => {
      const firstBuys = new Map<Address, { spent: bigint; tokens: bigint; siteFee: bigint }>();
      const launchTxs = new Map<Hex, { token: Address; pool: Address }>();
      for (const event of batch.events) {
        if (event.kind === 'firstBuy') {
          firstBuys.set(event.token, { spent: event.spent, tokens: event.tokens, siteFee: event.siteFee });
        } else if (event.kind === 'launched') {
          launchTxs.set(event.txHash, { token: event.token, pool: event.pool });
        }
      }
      const balances = new BalanceChanges(batch.to - KEPT_BLOCK_HASHES);
      for (const event of batch.events) {
        const timestamp = batch.timestamps.get(event.block);
        if (timestamp === undefined) throw new Error(`no timestamp for block ${event.block}`);
        const at = { block: event.block, logIndex: event.logIndex, txHash: event.txHash, timestamp };
        switch (event.kind) {
          case 'launched': {
            // The factory emits FirstBuy before Launched, in the same transaction, so both are in this batch.
            const firstBuy = firstBuys.get(event.token);
            // Positional parameters: the indexer's hot path, and binding by name costs more than the insert itself.
            s.launch.run(
              event.token,
              event.creator,
              event.pool,
              event.pair,
              event.fee,
              event.supply.toString(),
              event.openingTick,
              event.salt,
              event.name,
              event.symbol,
              event.metadataURI,
              event.royaltyTo === zeroAddress ? null : event.royaltyTo,
              event.burnBps,
              JSON.stringify(event.ranges),
              firstBuy ? firstBuy.spent.toString() : null,
              firstBuy ? firstBuy.tokens.toString() : null,
              firstBuy ? firstBuy.siteFee.toString() : null,
              event.block,
              event.logIndex,
              event.txHash,
              timestamp,
            );
            s.launchImage.run(event.token);
            break;
          }
          case 'firstBuy':
            break;
          case 'trade':
            s.trade.run(
              event.block,
              event.logIndex,
              event.txHash,
              timestamp,
              event.trader,
              event.token,
              event.referrer === zeroAddress ? null : event.referrer,
              event.pair,
              event.isBuy ? 1 : 0,
              event.pairAmount.toString(),
              event.tokenAmount.toString(),
              event.fee.toString(),
              event.cut.toString(),
            );
            break;
          case 'bound':
            s.binding.run({ ...at, wallet: event.wallet, referrer: event.referrer });
            break;
          case 'collected':
            s.collection.run({
              ...at,
              token: event.token,
              recipient: event.recipient,
              pairFees: event.pairFees.toString(),
              tokenFees: event.tokenFees.toString(),
              pairToRoyalty: event.pairToRoyalty.toString(),
              tokenToRoyalty: event.tokenToRoyalty.toString(),
              tokensBurned: event.tokensBurned.toString(),
            });
            break;
          case 'rootPosted':
            s.root.run({ ...at, week: Number(event.week), root: event.root, total: event.total.toString() });
            break;
          case 'claimed':
            s.claim.run({ ...at, referrer: event.referrer, week: Number(event.week), amount: event.amount.toString() });
            break;
          case 'transfer': {
            balances.add(event);
            // In its launch's transaction, what the factory sends a token's way other than into the pool or to be
            // burned is the first buy, to its recipients (the creator where the launch named none).
            const launch = launchTxs.get(event.txHash);
            if (
              launch?.token === event.token &&
              event.from === this.factory &&
              event.to !== launch.pool &&
              event.to !== DEAD_ADDRESS
            ) {
              s.firstBuyRecipient.run(event.token, event.to, event.value.toString(), event.block);
            }
            break;
          }
        }
      }
      this.applyBalances(balances.totals);
      for (const [block, token, holder, delta] of balances.recent()) {
        s.balanceChange.run(block, token, holder, delta.toString());
      }
      s.forgetOldChanges.run(batch.to - KEPT_BLOCK_HASHES);
      for (const [number, blockHash] of batch.hashes) s.keepHash.run(number, blockHash);
      for (const [number, sqrtPriceX96] of batch.prices ?? []) s.keepPrice.run(number, sqrtPriceX96.toString());
      s.forgetOldHashes.run(batch.to - KEPT_BLOCK_HASHES);
      s.moveCursor.run(batch.to, hash, Date.now());
    })();
    return { block: batch.to, hash };
  }

  /**
   * Adds each (token, holder)'s change to its balance; a balance that comes to zero drops the holder. A balance below
   * zero means a transfer was missed or counted twice: the batch fails rather than store a wrong index.
   */
  private applyBalances(totals: ReadonlyMap<string, bigint>): void {
    const s = this.statements;
    for (const [key, delta] of totals) {
      if (delta === 0n) continue;
      const token = key.slice(0, 42);
      const holder = key.slice(42);
      const stored = s.balance.get(token, holder) as string | undefined;
      const balance = (stored === undefined ? 0n : BigInt(stored)) + delta;
      if (balance < 0n)
        throw new Error(`the index would hold ${balance} of ${token} for ${holder}: a transfer is missing`);
      if (balance === 0n) s.dropHolder.run(token, holder);
      else s.setBalance.run(token, holder, balance.toString());
    }
  }

  /** Undoes the balance changes of blocks after `block` (inside rollBack's transaction); from the start, wipes them. */
  private rollBackBalances(block: number, fromStart: boolean): void {
    const s = this.statements;
    if (fromStart) {
      for (const statement of s.wipeBalances) statement.run();
      return;
    }
    const undo = new Map<string, bigint>();
    for (const row of s.changesAfter.all(block) as { token: Address; holder: Address; delta: string }[]) {
      const key = row.token + row.holder;
      undo.set(key, (undo.get(key) ?? 0n) - BigInt(row.delta));
    }
    this.applyBalances(undo);
    s.dropChangesAfter.run(block);
  }

  /** Every launched token indexed, in launch order: whose Transfer logs the indexer reads. */
  launchedTokens(): Address[] {
    return this.statements.tokens.all() as Address[];
  }

  /** How many addresses hold some of `token`, by the indexed transfers. */
  holderCount(token: Address): number {
    return this.statements.holderCount.get(getAddress(token)) as number;
  }

  /** The `limit` largest holders of `token`, largest first. */
  topHolders(token: Address, limit: number): IndexedHolder[] {
    const rows = this.statements.topHolders.all(getAddress(token), limit) as { holder: Address; balance: string }[];
    return rows.map((row) => ({ holder: row.holder, balance: BigInt(row.balance) }));
  }

  /** Who received the launch's first buy (its creator where the launch named no recipients); empty without one. */
  firstBuyRecipients(token: Address): Address[] {
    return this.statements.firstBuyRecipients.all(getAddress(token)) as Address[];
  }

  /** The BNB dollar pool's sqrtPriceX96 recorded at a block, if it was. */
  priceAt(block: number): bigint | undefined {
    const stored = this.statements.price.get(block) as string | undefined;
    return stored === undefined ? undefined : BigInt(stored);
  }

  /** Recent block hashes, newest first: where to look for the block a reorganized chain forked from. */
  recentHashes(): { number: number; hash: Hex }[] {
    return this.statements.recentHashes.all() as { number: number; hash: Hex }[];
  }

  /** The hash kept for an indexed block (one with events, or a batch's last), or null when none is kept. */
  blockHash(number: number): Hex | null {
    return (this.statements.blockHash.get(number) as Hex | undefined) ?? null;
  }

  /** Removes everything after `block` (a reorganized chain's orphaned blocks) and moves the cursor back, together. */
  rollBack(block: number, hash: Hex | null): IndexCursor {
    this.db.transaction(() => {
      this.rollBackBalances(block, hash === null);
      for (const statement of this.statements.rollback) statement.run(block);
      this.statements.moveCursor.run(block, hash, Date.now());
    })();
    return { block, hash };
  }

  /** The newest launches, newest first. */
  newestLaunches(limit: number): ListedLaunch[] {
    return this.statements.newest.all(limit) as ListedLaunch[];
  }

  /**
   * Launches after `block`, oldest first, in whole blocks: a page ends at a block boundary, so a block number is a
   * cursor that neither skips nor repeats. When one block alone holds more than `limit` launches, the page is that
   * whole block.
   */
  launchesAfter(block: number, limit: number): ListedLaunch[] {
    const rows = this.statements.since.all(block, limit + 1) as ListedLaunch[];
    if (rows.length <= limit) return rows;
    const last = rows[limit - 1] as ListedLaunch;
    const cut = (rows[limit] as ListedLaunch).block === last.block;
    if (!cut) return rows.slice(0, limit);
    const whole = rows.slice(0, limit).filter((row) => row.block !== last.block);
    if (whole.length > 0) return whole;
    return this.statements.inBlock.all(last.block) as ListedLaunch[];
  }

  launch(token: Address): IndexedLaunch | null {
    const row = this.statements.byToken.get(getAddress(token)) as LaunchRow | undefined;
    return row ? toLaunch(row) : null;
  }

  /**
   * The token's latest trades, newest first, its launch's first buy among them; only `wallet`'s when it is given (a
   * first buy is its creator's).
   */
  tradesOf(token: Address, limit: number, wallet?: Address): IndexedTrade[] {
    const rows = (
      wallet === undefined
        ? this.statements.tradesOf.all({ token: getAddress(token), limit })
        : this.statements.walletTradesOf.all({ token: getAddress(token), limit, wallet: getAddress(wallet) })
    ) as TradeRow[];
    return rows.map(tradeOf);
  }

  /** Every trade of `wallet`, of every token, oldest first; a launch's first buy counts as its creator's. */
  walletTrades(wallet: Address): (IndexedTrade & { token: Address })[] {
    const rows = this.statements.walletTrades.all({ wallet: getAddress(wallet) }) as (TradeRow & { token: Address })[];
    return rows.map((row) => ({ ...tradeOf(row), token: row.token }));
  }

  /**
   * Launches (each followed by its first buy) and trades after `from` up to and including block `to`, in chain order,
   * at most about `limit` rows read of each kind: a page ends where a kind's rows were cut, so the next page, from the
   * last entry's place, neither skips nor repeats. Empty once nothing is left up to `to`.
   */
  streamAfter(
    from: StreamPosition,
    to: number,
    limit: number,
    kinds: { launches: boolean; trades: boolean } = { launches: true, trades: true },
  ): StreamEntry[] {
    // Past every log of a block is the start of the next one.
    const [block, logIndex] =
      from.logIndex === Number.POSITIVE_INFINITY ? [from.block + 1, -1] : [from.block, from.logIndex];
    const launchRows = kinds.launches
      ? (this.statements.streamLaunches.all(block, logIndex, to, limit) as StreamLaunchRow[])
      : [];
    const tradeRows = kinds.trades
      ? (this.statements.streamTrades.all(block, logIndex, to, limit) as StreamTradeRow[])
      : [];
    const entries: StreamEntry[] = [];
    for (const row of launchRows) {
      const { firstBuySpent, firstBuyTokens, firstBuyFee, ...launch } = row;
      const at = { block: row.block, logIndex: row.logIndex };
      entries.push({ kind: 'launch', position: { ...at, part: 0 }, launch });
      if (firstBuySpent === null || firstBuyTokens === null || firstBuyFee === null) continue;
      entries.push({
        kind: 'trade',
        position: { ...at, part: 1 },
        token: row.token,
        trade: {
          ...at,
          txHash: row.txHash,
          timestamp: row.timestamp,
          trader: row.creator,
          referrer: null,
          isBuy: true,
          pairAmount: BigInt(firstBuySpent),
          tokenAmount: BigInt(firstBuyTokens),
          fee: BigInt(firstBuyFee),
          firstBuy: true,
        },
      });
    }
    for (const { token, isBuy, pairAmount, tokenAmount, fee, ...rest } of tradeRows) {
      entries.push({
        kind: 'trade',
        position: { block: rest.block, logIndex: rest.logIndex, part: 0 },
        token,
        trade: {
          ...rest,
          isBuy: isBuy === 1,
          pairAmount: BigInt(pairAmount),
          tokenAmount: BigInt(tokenAmount),
          fee: BigInt(fee),
        },
      });
    }
    entries.sort((a, b) => compareStreamPositions(a.position, b.position));
    // A kind whose read was cut may have more rows before the other kind's later ones: stop at its last row.
    let end: StreamPosition | null = null;
    for (const [rows, last] of [
      [launchRows, entries.findLast((entry) => entry.kind === 'launch' || entry.position.part === 1)],
      [tradeRows, entries.findLast((entry) => entry.kind === 'trade' && entry.position.part === 0)],
    ] as const) {
      if (rows.length < limit || !last) continue;
      if (end === null || compareStreamPositions(last.position, end) < 0) end = last.position;
    }
    return entries.filter(
      (entry) =>
        compareStreamPositions(entry.position, from) > 0 &&
        (end === null || compareStreamPositions(entry.position, end) <= 0),
    );
  }

  /** The launches `creator` made, newest first. */
  launchesBy(creator: Address): IndexedLaunch[] {
    return (this.statements.byCreator.all(getAddress(creator)) as LaunchRow[]).map(toLaunch);
  }

  /** What the factory's indexed `Collected` events of `token` paid out, summed; all zero before any collect. */
  collectedOf(token: Address): CollectedTotals {
    const rows = this.statements.collectionsOf.all(getAddress(token)) as Record<keyof CollectedTotals, string>[];
    const totals: CollectedTotals = {
      pairFees: 0n,
      tokenFees: 0n,
      pairToRoyalty: 0n,
      tokenToRoyalty: 0n,
      tokensBurned: 0n,
    };
    for (const row of rows) {
      for (const key of Object.keys(totals) as (keyof CollectedTotals)[]) totals[key] += BigInt(row[key]);
    }
    return totals;
  }

  isCreator(wallet: Address): boolean {
    return this.statements.isCreator.get(getAddress(wallet)) !== undefined;
  }

  /** Rows stored per kind (a full count: for start-up and after a rollback, not per request). */
  counts(): IndexCounts {
    return this.statements.counts.get() as IndexCounts;
  }
}

/**
 * A batch's transfers as balance changes: the total per (token, holder), and per block as well for the blocks a
 * reorganization can still reach (after `horizon`), which a rollback undoes. The mint (from the zero address) takes
 * from nobody; the token has no burn to the zero address (its transfer refuses it), so nothing is lost the other way.
 */
class BalanceChanges {
  readonly totals = new Map<string, bigint>();
  private readonly byBlock = new Map<number, Map<string, bigint>>();

  constructor(private readonly horizon: number) {}

  add(transfer: { block: number; token: Address; from: Address; to: Address; value: bigint }): void {
    const { block, token, from, to, value } = transfer;
    if (value === 0n || from === to) return;
    const kept = block > this.horizon ? this.blockChanges(block) : null;
    if (from !== zeroAddress) this.move(token + from, -value, kept);
    if (to !== zeroAddress) this.move(token + to, value, kept);
  }

  /** The kept changes as [block, token, holder, delta], none zero. */
  *recent(): Generator<[number, Address, Address, bigint]> {
    for (const [block, changes] of this.byBlock) {
      for (const [key, delta] of changes) {
        if (delta !== 0n) yield [block, key.slice(0, 42) as Address, key.slice(42) as Address, delta];
      }
    }
  }

  private blockChanges(block: number): Map<string, bigint> {
    let changes = this.byBlock.get(block);
    if (!changes) {
      changes = new Map();
      this.byBlock.set(block, changes);
    }
    return changes;
  }

  private move(key: string, delta: bigint, kept: Map<string, bigint> | null): void {
    this.totals.set(key, (this.totals.get(key) ?? 0n) + delta);
    kept?.set(key, (kept.get(key) ?? 0n) + delta);
  }
}
