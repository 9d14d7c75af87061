/** A transaction of an action that was mined but reverted, as data the pages act on. */
export interface RevertedTx {
  /** The step that reverted: 'main', or an approval step's name. */
  step: string;
  /** The contract's error it reverted with (`PoolOccupied`, `LimitNotMet`...); null when it could not be told. */
  name: string | null;
  /** The network fee it cost, in wei; null when the node did not say. */
  feeWei: string | null;
}

/** Thrown by the send flow when a transaction it sent was mined but reverted: why in words, and `reverted` as data. */
export class RevertedOnChain extends Error {
  constructor(
    message: string,
    readonly reverted: RevertedTx,
  ) {
    super(message);
    this.name = 'RevertedOnChain';
  }
}
