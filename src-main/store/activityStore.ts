import type { Address, Hex } from 'viem';
import type { ActivityEntry, ActivityMoved, ActivityStatus } from '../../src-shared/appChannelTypes';
import type { Db } from './openDatabase';

export type { ActivityEntry, ActivityMoved, ActivityStatus };

interface Row {
  id: string;
  group_id: string;
  step: string;
  kind: string;
  title: string;
  wallet: string;
  chain_id: number;
  to_address: string | null;
  data: string | null;
  value: string | null;
  message: string | null;
  nonce: number | null;
  raw: string | null;
  hash: string | null;
  status: ActivityStatus;
  error: string | null;
  revert: string | null;
  block: number | null;
  gas_used: string | null;
  fee_wei: string | null;
  sent_privately: 0 | 1;
  moved: string | null;
  created_at: number;
  updated_at: number;
}

const toEntry = (row: Row): ActivityEntry => ({
  id: row.id,
  groupId: row.group_id,
  step: row.step,
  kind: row.kind,
  title: row.title,
  wallet: row.wallet as Address,
  chainId: row.chain_id,
  to: row.to_address as Address | null,
  data: row.data as Hex | null,
  value: row.value,
  message: row.message,
  nonce: row.nonce,
  hash: row.hash as Hex | null,
  status: row.status,
  error: row.error,
  revert: row.revert,
  block: row.block,
  gasUsed: row.gas_used,
  feeWei: row.fee_wei,
  sentPrivately: row.sent_privately === 1,
  moved: movedOf(row.moved),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** The stored JSON of what a transaction moved; anything unreadable reads as not known, never as a failure. */
function movedOf(text: string | null): ActivityMoved | null {
  if (text === null) return null;
  try {
    const moved = JSON.parse(text) as ActivityMoved;
    return Array.isArray(moved?.received) && Array.isArray(moved?.paid) ? moved : null;
  } catch {
    return null;
  }
}

export type NewActivity = Pick<ActivityEntry, 'id' | 'groupId' | 'step' | 'kind' | 'title' | 'wallet' | 'chainId'> &
  Partial<Pick<ActivityEntry, 'to' | 'data' | 'value' | 'message'>>;

/** The activity table: each status change is one statement, so a row is never half-updated. */
export class ActivityStore {
  private readonly sql;

  constructor(
    db: Db,
    private readonly now: () => number = Date.now,
    /** Told of an entry once it has its receipt or has failed (the notifications of the person's transactions). */
    private readonly onSettled: (entry: ActivityEntry) => void = () => {},
  ) {
    this.sql = {
      insert: db.prepare(
        `INSERT INTO activity (id, group_id, step, kind, title, wallet, chain_id, to_address, data, value, message,
           status, created_at, updated_at)
         VALUES (@id, @groupId, @step, @kind, @title, @wallet, @chainId, @to, @data, @value, @message, 'signing', @at, @at)`,
      ),
      get: db.prepare('SELECT * FROM activity WHERE id = ?'),
      list: db.prepare('SELECT * FROM activity ORDER BY created_at DESC, id DESC LIMIT ?'),
      byStatus: db.prepare('SELECT * FROM activity WHERE status = ? ORDER BY created_at, id'),
      signed: db.prepare(
        `UPDATE activity SET status = @status, raw = @raw, hash = @hash, nonce = @nonce, sent_privately = @privately,
           updated_at = @at
         WHERE id = @id AND status = 'signing'`,
      ),
      settled: db.prepare(
        `UPDATE activity SET status = @status, block = @block, gas_used = @gasUsed, fee_wei = @feeWei, error = @error,
           revert = @revert, moved = @moved, updated_at = @at
         WHERE id = @id`,
      ),
      failed: db.prepare(`UPDATE activity SET status = 'failed', error = @error, updated_at = @at WHERE id = @id`),
      raw: db.prepare('SELECT raw FROM activity WHERE id = ?').pluck(),
    };
  }

  /** Records an action about to be signed, before the signer is asked. */
  begin(entry: NewActivity): ActivityEntry {
    this.sql.insert.run({
      to: null,
      data: null,
      value: null,
      message: null,
      ...entry,
      at: this.now(),
    });
    return this.get(entry.id) as ActivityEntry;
  }

  get(id: string): ActivityEntry | undefined {
    const row = this.sql.get.get(id) as Row | undefined;
    return row && toEntry(row);
  }

  /** The newest first. */
  list(limit = 100): ActivityEntry[] {
    return (this.sql.list.all(limit) as Row[]).map(toEntry);
  }

  withStatus(status: ActivityStatus): ActivityEntry[] {
    return (this.sql.byStatus.all(status) as Row[]).map(toEntry);
  }

  /**
   * A message signed (status 'signed'), or a transaction signed and about to be broadcast (status 'sent'), `privately`
   * when it goes to the private RPC rather than the public one.
   */
  signed(
    id: string,
    signed: { status: 'signed' | 'sent'; raw?: Hex; hash?: Hex; nonce?: number; privately?: boolean },
  ): void {
    const { privately = false, ...rest } = signed;
    this.sql.signed.run({
      id,
      raw: null,
      hash: null,
      nonce: null,
      ...rest,
      privately: privately ? 1 : 0,
      at: this.now(),
    });
  }

  /**
   * Records the receipt and the fee it cost; a reverted one may carry why, in the person's words (`error`) and as the
   * contract's error name (`revert`); a confirmed one what it moved, read from its logs (`moved`).
   */
  settled(
    id: string,
    outcome: {
      status: 'confirmed' | 'reverted';
      block: number;
      gasUsed: bigint;
      feeWei?: bigint | null;
      error?: string | null;
      revert?: string | null;
      moved?: ActivityMoved | null;
    },
  ): void {
    this.sql.settled.run({
      id,
      ...outcome,
      gasUsed: outcome.gasUsed.toString(),
      feeWei: outcome.feeWei?.toString() ?? null,
      error: outcome.error ?? null,
      revert: outcome.revert ?? null,
      moved: outcome.moved ? JSON.stringify(outcome.moved) : null,
      at: this.now(),
    });
    this.told(id);
  }

  failed(id: string, error: string): void {
    this.sql.failed.run({ id, error, at: this.now() });
    this.told(id);
  }

  private told(id: string): void {
    const entry = this.get(id);
    if (entry) this.onSettled(entry);
  }

  rawOf(id: string): Hex | undefined {
    return (this.sql.raw.get(id) as Hex | null | undefined) ?? undefined;
  }
}
