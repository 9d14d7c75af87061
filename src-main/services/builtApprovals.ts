import type { Address } from 'viem';
import type { UnsignedTx } from '../../src-shared/schema/unsignedTx';

/** What names an approval: its chain, token and call. */
type ApprovalCall = Pick<UnsignedTx, 'chainId' | 'to' | 'data'>;

/** How long a built approval may be signed: as long as the trade it comes with stays valid, and then some. */
const KEEP_MS = 60 * 60 * 1000;
/** At most this many remembered at once; the oldest go first. */
const MAX_KEPT = 2_000;

/**
 * The approval steps this service built, per wallet, so main's last guard signs an approval only with the spender
 * and amount a build claimed: a page that edits an approval's amount (or invents one) gets it refused.
 */
export class BuiltApprovals {
  /** Key (wallet, chain, to, data) to the time it was built; a Map keeps insertion order, so the oldest come first. */
  private readonly built = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  remember(wallet: Address, tx: ApprovalCall): void {
    const key = keyOf(wallet, tx);
    this.built.delete(key);
    this.built.set(key, this.now());
    this.prune();
  }

  /** Whether the service built exactly this approval for this wallet within the last hour. */
  has(wallet: Address, tx: ApprovalCall): boolean {
    this.prune();
    return this.built.has(keyOf(wallet, tx));
  }

  private prune(): void {
    const oldest = this.now() - KEEP_MS;
    for (const [key, at] of this.built) {
      if (at >= oldest && this.built.size <= MAX_KEPT) break;
      this.built.delete(key);
    }
  }
}

const keyOf = (wallet: Address, tx: ApprovalCall) =>
  `${wallet.toLowerCase()}:${tx.chainId}:${tx.to.toLowerCase()}:${tx.data.toLowerCase()}`;
