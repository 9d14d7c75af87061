import type { ChainContext } from '../chain/connectChain';

/**
 * One chain read kept until the chain announces its next block (or, with `maxAgeMs`, until it is that old: a chain
 * whose blocks are polled for), shared by everyone asking meanwhile. A failed read is not kept: the next ask reads
 * the chain again.
 *
 * @example const fees = new BlockMemo(chain, () => readFees(chain.client, chain.chainId)); await fees.get();
 */
export class BlockMemo<T> {
  private kept: { at: number; reading: Promise<T> } | undefined;
  /** What the kept reading resolved to, while it is the kept one. */
  private settled: T | undefined;

  constructor(
    chain: Pick<ChainContext, 'onBlock'>,
    private readonly read: () => Promise<T>,
    private readonly maxAgeMs = Number.POSITIVE_INFINITY,
    private readonly now: () => number = () => performance.now(),
  ) {
    chain.onBlock(() => this.forget());
  }

  get(): Promise<T> {
    const at = this.now();
    if (this.kept && at - this.kept.at <= this.maxAgeMs) return this.kept.reading;
    this.settled = undefined;
    const reading = this.read();
    const kept = { at, reading };
    this.kept = kept;
    reading.then(
      (value) => {
        if (this.kept === kept) this.settled = value;
      },
      () => {
        if (this.kept === kept) this.kept = undefined;
      },
    );
    return reading;
  }

  /** What `get` would give at once, without waiting; undefined until read since the last block. */
  peek(): T | undefined {
    return this.settled;
  }

  private forget(): void {
    this.kept = undefined;
    this.settled = undefined;
  }
}
