import { StandardMerkleTree } from '@openzeppelin/merkle-tree';
import { type Address, encodeFunctionData, formatUnits, type Hex, zeroHash } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { UnsignedTx } from '../../src-shared/schema/unsignedTx';
import { chainClockMs } from '../chain/chainClock';
import type { ChainContext } from '../chain/connectChain';
import { ReferralVault } from '../chain/generated/contracts';
import { readFees } from '../chain/readFees';
import { ApiError } from '../core/errors';
import { weekOf, weekStart } from '../core/referrals/weeks';
import { type Logger, silentLogger } from '../log/createLogger';
import type { Db } from '../store/openDatabase';
import { CoalescedRun } from './coalescedRun';
import { type IncomeTrade, LifetimeIncome } from './lifetimeIncome';
import type { SettingsService } from './settingsService';
import { simulateFrom } from './simulation';

/** The vault's CORRECTION_WINDOW: a posted week's claims open this long after its posting. */
const CORRECTION_WINDOW_SECONDS = 3600;

/** The vault takes at most this many weeks in one claim. */
const MAX_WEEKS_PER_CLAIM = 104;
/** Weeks closed in one pass at most, so a long-idle service catches up in steps. */
const MAX_WEEKS_PER_PASS = 52;
const LEAF_ENCODING = ['uint256', 'address', 'uint256'];

export interface WeekShare {
  week: number;
  amount: string;
  paid: boolean;
  claimable: boolean;
  proof: string[] | null;
}

export interface Backlog {
  owedWei: string;
  sinceWeek: number;
  lastAddedWeek: number;
}

interface ShareRow {
  week: number;
  referrer: Address;
  owed: string;
  carried: string;
  amount: string;
  backlog: string;
  backlog_since: number | null;
  backlog_last: number | null;
  proof: string | null;
}

/**
 * The weekly job of the lifetime referral share. When a week is over (the indexed chain has a block past its end),
 * it takes each referrer's share of the service's income from the wallets bound to them, pays at most the weekly cap
 * and carries the rest as backlog into later weeks, builds the Merkle tree the vault checks (OpenZeppelin's standard
 * tree over (week, referrer, amount), the vault's leaf encoding), keeps every proof, and posts the root with the
 * week's funds: on the devnet the operator account sends it; elsewhere the operator's transaction is logged for them
 * to send. Claims are built for all of a referrer's claimable weeks at once.
 */
export class LifetimeWeeks {
  private readonly run = new CoalescedRun(async () => {
    try {
      await this.closeDue();
      await this.postPending();
    } catch (error) {
      this.log.warn(`referral weeks: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    }
    return true;
  });
  private readonly statements;
  private readonly announced = new Set<number>();
  /** The week of the first bound trade, once one is indexed. */
  private firstWeek: number | undefined;
  /** Roots waiting for the operator to post them (testnet and mainnet): the transaction to send, by week. */
  private readonly awaiting = new Map<number, { week: number; to: Address; value: string; data: Hex }>();

  constructor(
    private readonly db: Db,
    private readonly chain: ChainContext,
    private readonly indexedHead: () => { block: number; timestamp: number | null },
    private readonly settings: SettingsService,
    private readonly income: LifetimeIncome,
    readonly weeklyCapWei: bigint,
    private readonly log: Logger = silentLogger(),
  ) {
    this.statements = {
      lastWeek: db.prepare('SELECT max(week) FROM referral_weeks').pluck(),
      firstBoundTrade: db
        .prepare(
          `SELECT min(t.timestamp) FROM trades t JOIN bindings b ON b.wallet = t.trader
         WHERE t.block > b.block OR (t.block = b.block AND t.log_index > b.log_index)`,
        )
        .pluck(),
      boundTrades: db.prepare(
        `SELECT b.referrer, t.pair, t.fee, t.cut, t.block FROM trades t JOIN bindings b ON b.wallet = t.trader
         WHERE (t.block > b.block OR (t.block = b.block AND t.log_index > b.log_index))
           AND t.timestamp >= ? AND t.timestamp < ? ORDER BY t.block, t.log_index`,
      ),
      backlogs: db.prepare(
        `SELECT s.* FROM referral_week_shares s
         JOIN (SELECT referrer, max(week) AS week FROM referral_week_shares GROUP BY referrer) last
           ON last.referrer = s.referrer AND last.week = s.week
         WHERE s.backlog <> '0'`,
      ),
      insertWeek: db.prepare('INSERT INTO referral_weeks (week, root, total, computed_at) VALUES (?, ?, ?, ?)'),
      insertShare: db.prepare(
        `INSERT INTO referral_week_shares (week, referrer, owed, carried, amount, backlog, backlog_since, backlog_last, proof)
         VALUES (@week, @referrer, @owed, @carried, @amount, @backlog, @backlog_since, @backlog_last, @proof)`,
      ),
      unposted: db.prepare(
        'SELECT week, root, total FROM referral_weeks WHERE root IS NOT NULL AND post_tx IS NULL ORDER BY week',
      ),
      posted: db.prepare('UPDATE referral_weeks SET post_tx = ? WHERE week = ?'),
      shares: db.prepare(
        `SELECT s.*, w.root, EXISTS (SELECT 1 FROM referral_roots r WHERE r.week = s.week AND r.root = w.root) AS onChain,
           (SELECT MIN(r.timestamp) FROM referral_roots r WHERE r.week = s.week) AS postedAt,
           EXISTS (SELECT 1 FROM referral_claims c WHERE c.week = s.week AND c.referrer = s.referrer) AS claimed
         FROM referral_week_shares s JOIN referral_weeks w ON w.week = s.week
         WHERE s.referrer = ? ORDER BY s.week`,
      ),
    };
  }

  poke(): void {
    this.run.poke();
  }

  settled(): Promise<void> {
    return this.run.settled();
  }

  stop(): Promise<void> {
    return this.run.stop();
  }

  /** Closes every week that is over on the indexed chain and not closed yet, in order. */
  async closeDue(): Promise<void> {
    const head = this.indexedHead();
    if (head.block < 0) return;
    // The indexer knows its block's time after its first batch; only before that is the header read here.
    const time =
      head.timestamp ?? Number((await this.chain.client.getBlock({ blockNumber: BigInt(head.block) })).timestamp);
    const lastOver = weekOf(time) - 1;
    const last = this.statements.lastWeek.get() as number | null;
    let next: number;
    if (last !== null) {
      next = last + 1;
    } else {
      // Until a first week is closed, the week of the first bound trade is where closing starts; found once.
      this.firstWeek ??= this.firstBoundWeek();
      if (this.firstWeek === undefined) return;
      next = this.firstWeek;
    }
    for (let week = next; week <= lastOver && week < next + MAX_WEEKS_PER_PASS; week++) await this.closeWeek(week);
  }

  /** Not found is not kept (undefined): a bound trade may come with the next batch. */
  private firstBoundWeek(): number | undefined {
    const first = this.statements.firstBoundTrade.get() as number | null;
    return first === null ? undefined : weekOf(first);
  }

  /** Each referrer's share of one week, capped, with the backlog carried in and out, and the tree of what is paid. */
  private async closeWeek(week: number): Promise<void> {
    const { fees } = await this.settings.get();
    const trades = this.statements.boundTrades.all(weekStart(week), weekStart(week + 1)) as (IncomeTrade & {
      referrer: Address;
    })[];
    const byReferrer = new Map<Address, IncomeTrade[]>();
    for (const trade of trades) byReferrer.set(trade.referrer, [...(byReferrer.get(trade.referrer) ?? []), trade]);
    const carriedIn = new Map(
      (this.statements.backlogs.all() as ShareRow[]).map((row) => [row.referrer, row] as const),
    );
    const referrers = [...new Set([...byReferrer.keys(), ...carriedIn.keys()])].sort();
    const rows: ShareRow[] = [];
    for (const referrer of referrers) {
      const owed = LifetimeIncome.share(
        await this.income.inBnb(byReferrer.get(referrer) ?? []),
        fees.lifetimeReferralBps,
      );
      const before = carriedIn.get(referrer);
      const carried = before ? BigInt(before.backlog) : 0n;
      const due = owed + carried;
      const amount = due < this.weeklyCapWei ? due : this.weeklyCapWei;
      const backlog = due - amount;
      // The carried backlog is paid first, oldest first; what this week owed beyond the cap is added to it.
      const carriedLeft = carried > amount ? carried - amount : 0n;
      const addedNow = backlog > carriedLeft;
      rows.push({
        week,
        referrer,
        owed: owed.toString(),
        carried: carried.toString(),
        amount: amount.toString(),
        backlog: backlog.toString(),
        backlog_since: backlog === 0n ? null : carriedLeft > 0n ? (before?.backlog_since ?? week) : week,
        backlog_last: backlog === 0n ? null : addedNow ? week : (before?.backlog_last ?? week),
        proof: null,
      });
    }
    const paid = rows.filter((row) => row.amount !== '0');
    let root: Hex | null = null;
    if (paid.length > 0) {
      const tree = StandardMerkleTree.of(
        paid.map((row) => [week.toString(), row.referrer, row.amount]),
        LEAF_ENCODING,
      );
      root = tree.root as Hex;
      paid.forEach((row, i) => {
        row.proof = JSON.stringify(tree.getProof(i));
      });
    }
    const total = paid.reduce((sum, row) => sum + BigInt(row.amount), 0n);
    this.db.transaction(() => {
      this.statements.insertWeek.run(week, root, total.toString(), Date.now());
      for (const row of rows) this.statements.insertShare.run(row);
    })();
    if (root)
      this.log.info(`referral weeks: week ${week} closed, ${formatUnits(total, 18)} BNB to ${paid.length} referrers`);
  }

  /** Posts the roots of closed weeks with their funds: sent by the operator account on the devnet, logged elsewhere. */
  private async postPending(): Promise<void> {
    const vault = this.chain.addresses.referrals;
    if (!vault) return;
    for (const { week, root, total } of this.statements.unposted.all() as {
      week: number;
      root: Hex;
      total: string;
    }[]) {
      const onChain = await this.chain.client.readContract({
        address: vault,
        abi: ReferralVault.abi,
        functionName: 'roots',
        args: [BigInt(week)],
      });
      if (onChain !== zeroHash) {
        this.statements.posted.run(onChain === root ? 'on chain' : `a different root: ${onChain}`, week);
        this.awaiting.delete(week);
        continue;
      }
      const data = encodeFunctionData({
        abi: ReferralVault.abi,
        functionName: 'postRoot',
        args: [BigInt(week), root, BigInt(total)],
      });
      // The devnet's operator owns the vault on the devnet and wherever it deployed ours (a fork of BSC without them, or
      // of our devnet); a fork of BSC that found ours there waits for the vault's real owner, as BSC does.
      const devnet = this.chain.devnet;
      const fork = devnet?.fork;
      if (!devnet || (fork && fork.sourceNetwork !== 'devnet' && fork.contracts === 'found')) {
        this.awaiting.set(week, { week, to: vault, value: total, data });
        if (!this.announced.has(week)) {
          this.announced.add(week);
          this.log.warn(
            `referral weeks: week ${week} awaits the operator: send ${formatUnits(BigInt(total), 18)} BNB to ${vault} with data ${data}`,
          );
        }
        continue;
      }
      const operator = privateKeyToAccount(devnet.accounts[0]?.privateKey ?? '0x');
      const { client } = this.chain;
      const [nonce, fees, gas] = await Promise.all([
        client.getTransactionCount({ address: operator.address, blockTag: 'pending' }),
        readFees(client, this.chain.chainId),
        client.estimateGas({ account: operator.address, to: vault, data, value: BigInt(total) }),
      ]);
      const raw = await operator.signTransaction({
        chainId: this.chain.chainId,
        to: vault,
        data,
        value: BigInt(total),
        gas: (gas * 12n) / 10n,
        nonce,
        maxFeePerGas: fees.maxFeePerGas,
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
      });
      this.statements.posted.run(await devnet.sendRawTransaction(raw), week);
    }
  }

  /** The last closed week, and the root postings waiting for the operator (the vault's owner) to send. */
  status(): {
    lastClosedWeek: number | null;
    awaitingOperator: { week: number; to: Address; value: string; data: Hex }[];
  } {
    return {
      lastClosedWeek: this.statements.lastWeek.get() as number | null,
      awaitingOperator: [...this.awaiting.values()],
    };
  }

  /**
   * A referrer's closed weeks with an amount: paid (claimed on the vault), claimable (root on chain, its hour of
   * correction over by `nowSeconds` on the chain's clock, unpaid), proof.
   */
  weeksOf(referrer: Address, nowSeconds: number): { weeks: WeekShare[]; backlog: Backlog | null } {
    const rows = this.statements.shares.all(referrer) as (ShareRow & {
      onChain: number;
      claimed: number;
      postedAt: number | null;
    })[];
    const weeks = rows
      .filter((row) => row.amount !== '0')
      .map((row) => ({
        week: row.week,
        amount: row.amount,
        paid: row.claimed === 1,
        claimable:
          row.onChain === 1 &&
          row.claimed === 0 &&
          row.postedAt !== null &&
          row.postedAt + CORRECTION_WINDOW_SECONDS <= nowSeconds,
        proof: row.proof === null ? null : (JSON.parse(row.proof) as string[]),
      }));
    const last = rows[rows.length - 1];
    const backlog =
      last && last.backlog !== '0'
        ? {
            owedWei: last.backlog,
            sinceWeek: last.backlog_since ?? last.week,
            lastAddedWeek: last.backlog_last ?? last.week,
          }
        : null;
    return { weeks, backlog };
  }

  /**
   * One claim transaction for every claimable week of a referrer (104 at most), simulated from the wallet that will
   * send it (anyone may; the vault pays the referrer). REFERRAL_ERROR when nothing is claimable.
   */
  async buildClaim({ wallet, referrer = wallet }: { wallet: Address; referrer?: Address | undefined }) {
    const vault = this.chain.addresses.referrals;
    if (!vault) throw new ApiError('NOT_DEPLOYED', `the referral vault is not deployed on ${this.chain.network}`);
    const claimable = this.weeksOf(referrer, Math.floor(chainClockMs(this.chain.devnet) / 1000))
      .weeks.filter((week) => week.claimable)
      .slice(0, MAX_WEEKS_PER_CLAIM);
    if (claimable.length === 0) {
      throw new ApiError('REFERRAL_ERROR', `${referrer} has no claimable week: nothing is owed, or it was paid`, {
        field: 'referrer',
        fix: 'See lifetime.claimableWeeks in GET /referrals/{address}; weeks become claimable an hour after they are closed and posted.',
      });
    }
    const data = encodeFunctionData({
      abi: ReferralVault.abi,
      functionName: 'claim',
      args: [
        referrer,
        claimable.map((week) => ({ week: BigInt(week.week), amount: BigInt(week.amount), proof: week.proof as Hex[] })),
      ],
    });
    const tx: UnsignedTx = { chainId: this.chain.chainId, to: vault, data, value: '0' };
    const gas = await simulateFrom(this.chain, wallet, tx, 0n, 'the claim');
    const gasPriceWei = (await readFees(this.chain.client, this.chain.chainId)).maxFeePerGas;
    const total = claimable.reduce((sum, week) => sum + BigInt(week.amount), 0n);
    return {
      wallet,
      referrer,
      weeks: claimable.map((week) => ({ week: week.week, amount: week.amount })),
      total: { amount: formatUnits(total, 18), wei: total.toString(), symbol: 'BNB' },
      tx: { ...tx, gas: gas.toString() },
      simulation: { ran: true, ok: true },
      cost: {
        gasPriceWei: gasPriceWei.toString(),
        maxWei: (gas * gasPriceWei).toString(),
        max: formatUnits(gas * gasPriceWei, 18),
      },
      explain:
        `Claim ${formatUnits(total, 18)} BNB of lifetime referral share for ${referrer}, ` +
        `weeks ${claimable.map((week) => week.week).join(', ')}, paid by the referral vault.`,
    };
  }
}
