/**
 * One request at a time to the signers. A Ledger handles one APDU exchange at a time and a person confirms one
 * thing at a time, so a second request waits for the first to finish (or fail) instead of racing it.
 */
export class SignerQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private waiting = 0;

  /** Runs `job` after every job queued before it has settled. */
  run<T>(job: () => Promise<T>): Promise<T> {
    this.waiting += 1;
    const result = this.tail.then(job, job).finally(() => {
      this.waiting -= 1;
    });
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Jobs queued or running. */
  get pending(): number {
    return this.waiting;
  }
}
