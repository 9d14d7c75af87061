/**
 * Runs a job that catches up with work, one run at a time: a poke while a run is under way makes that run go round
 * once more instead of starting a second one, so bursts of pokes cost one pass each. Once stopped, pokes do nothing.
 *
 * @example const run = new CoalescedRun(async () => { await catchUp(); return true; }); chain.onBlock(() => run.poke());
 */
export class CoalescedRun {
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  /** `pass` does the work; it answers false to end the run even when poked meanwhile (it scheduled its own retry). */
  constructor(private readonly pass: () => Promise<boolean>) {}

  get isStopped(): boolean {
    return this.stopped;
  }

  poke(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.loop().finally(() => {
      this.running = null;
    });
  }

  /** Resolves when no run is under way. */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Stops: no new run starts; resolves once the run under way has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  private async loop(): Promise<void> {
    do {
      this.again = false;
      if (!(await this.pass())) return;
    } while (this.again && !this.stopped);
  }
}
