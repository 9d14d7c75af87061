import type { Address } from 'viem';
import type { Db } from '../store/openDatabase';
import type { ReferrerDirectory } from './referrerEligibility';

/** Wallets that registered as referrers by signing a challenge (free, no gas). Registering twice changes nothing. */
export class ReferrerRegistry implements ReferrerDirectory {
  private readonly insert;
  private readonly find;

  constructor(
    db: Db,
    private readonly now: () => number = Date.now,
  ) {
    this.insert = db.prepare('INSERT OR IGNORE INTO referrers (address, registered_at) VALUES (?, ?)');
    this.find = db.prepare('SELECT registered_at FROM referrers WHERE address = ?').pluck();
  }

  /** Registers the wallet; returns when it first registered. */
  register(address: Address): Date {
    this.insert.run(address, this.now());
    return this.registeredAt(address) as Date;
  }

  registeredAt(address: Address): Date | null {
    const at = this.find.get(address) as number | undefined;
    return at === undefined ? null : new Date(at);
  }

  async isRegistered(address: Address): Promise<boolean> {
    return this.registeredAt(address) !== null;
  }
}
