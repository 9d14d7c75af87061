import { tokenDetailsSchema } from '../../src-shared/schema/metadata';
import { type Logger, silentLogger } from '../log/createLogger';
import type { LaunchDetails } from '../store/indexStore';
import type { Db } from '../store/openDatabase';
import { CoalescedRun } from './coalescedRun';
import { linkFailureKind } from './media/guardedFetch';
import type { MediaStore } from './mediaStore';

/** Tries before a launch whose metadata cannot be reached is shown without a logo for good. */
const MAX_ATTEMPTS = 6;
const FIRST_RETRY_SECONDS = 60;
const BUSY_RETRY_SECONDS = 10;
/** How long a reader asking for a logo the cache removed waits for it to be fetched again. */
const REFETCH_WAIT_MS = 10_000;

/**
 * Finds each indexed launch's logo in its metadata, after the launch is indexed: reading metadata is network work and
 * must not hold the indexer up. The logo is fetched, checked as an image and stored here, and kept as its path
 * (`/media/<cid>`): the UI shows only images this server serves. These are background fetches of other people's
 * links: they use the media store's background budget (a few at a time, a short deadline), so launches whose hosts
 * never answer cannot hold up the user's own uploads; links that cannot be reached are tried again later, with
 * growing pauses. While third-party fetches are switched off, launches whose metadata or logo is elsewhere are held
 * unfetched, and looked at again when the person turns them on. The logos are a cache the media store may prune: one
 * asked for again after that is fetched again (`fetchAgain`).
 */
export class LaunchImages {
  private readonly due;
  private readonly found;
  private readonly none;
  private readonly later;
  private readonly held;
  private readonly nextDue;
  private readonly refind;
  private readonly unhold;
  /** Readers waiting for a launch's logo to be looked for again, by token. */
  private readonly waiting = new Map<string, (() => void)[]>();
  /** Launches read at once: as many as the background budget takes. */
  private readonly batch: number;
  private wakeUp: NodeJS.Timeout | null = null;
  /** Wakes a pass under way to look for newly due launches. */
  private nudge: (() => void) | undefined;
  private readonly run = new CoalescedRun(async () => {
    await this.drain();
    return true;
  });

  constructor(
    db: Db,
    private readonly media: Pick<
      MediaStore,
      'resolveMetadataURI' | 'fetchImage' | 'fetchesThirdParty' | 'backgroundSlots'
    >,
    private readonly log: Logger = silentLogger(),
  ) {
    this.batch = Math.max(1, media.backgroundSlots);
    this.due = db.prepare(
      `SELECT i.token, l.metadata_uri AS uri, i.attempts FROM launch_images i JOIN launches l ON l.token = i.token
       WHERE i.state IN ('pending', 'retry') AND i.next_attempt <= ? ORDER BY l.block, l.log_index LIMIT ?`,
    );
    this.found = db.prepare("UPDATE launch_images SET state = 'found', image = ?, details = ? WHERE token = ?");
    this.none = db.prepare("UPDATE launch_images SET state = 'none', image = NULL, details = ? WHERE token = ?");
    this.later = db.prepare("UPDATE launch_images SET state = 'retry', attempts = ?, next_attempt = ? WHERE token = ?");
    this.held = db.prepare("UPDATE launch_images SET state = 'held' WHERE token = ?");
    this.nextDue = db.prepare("SELECT min(next_attempt) FROM launch_images WHERE state = 'retry'").pluck();
    this.refind = db
      .prepare(
        "UPDATE launch_images SET state = 'pending', attempts = 0, next_attempt = 0 WHERE image = ? AND state = 'found' RETURNING token",
      )
      .pluck();
    this.unhold = db.prepare("UPDATE launch_images SET state = 'pending' WHERE state = 'held'");
    // Fetches are on: what was held while they were off is looked for now.
    if (media.fetchesThirdParty) this.unhold.run();
  }

  /** The person turned third-party fetches on: the launches held while they were off are looked at now. */
  resumeHeld(): void {
    if (this.unhold.run().changes > 0) this.poke();
  }

  /**
   * Looks again for the logo stored as `cid` that the media cache removed, for the launches that showed it, and
   * resolves once they were looked at (or after a short wait): the reader then finds it stored again, unless the
   * metadata now names another logo or cannot be reached. Nothing happens for a CID no launch's logo is.
   */
  async fetchAgain(cid: string): Promise<void> {
    const tokens = this.refind.all(`/media/${cid}`) as string[];
    if (tokens.length === 0) return;
    const looked = tokens.map(
      (token) =>
        new Promise<void>((resolve) => {
          this.waiting.set(token, [...(this.waiting.get(token) ?? []), resolve]);
        }),
    );
    this.poke();
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, REFETCH_WAIT_MS);
      timer.unref();
    });
    await Promise.race([Promise.all(looked), waited]);
    clearTimeout(timer);
  }

  /** Looks for launches waiting for their logo (coalesced with a pass under way). */
  poke(): void {
    this.run.poke();
    // A pass under way takes new launches into slots as they free, rather than after its slowest fetch.
    this.nudge?.();
  }

  /** Resolves when no pass is under way. */
  settled(): Promise<void> {
    return this.run.settled();
  }

  stop(): Promise<void> {
    if (this.wakeUp) clearTimeout(this.wakeUp);
    for (const token of [...this.waiting.keys()]) this.wakeWaiting(token);
    return this.run.stop();
  }

  /** Resolves the logos of every launch that is due, a few at a time, and wakes up when the next retry is due. */
  /**
   * Resolves the logos of every launch that is due, as many at once as the background budget takes, each slot taking
   * the next launch as soon as it frees (a host that never answers holds one slot, not the others), and wakes up when
   * the next retry is due.
   */
  private async drain(): Promise<void> {
    const active = new Map<string, Promise<void>>();
    while (!this.run.isStopped) {
      if (active.size < this.batch) {
        const rows = (
          this.due.all(Math.floor(Date.now() / 1000), this.batch + active.size) as {
            token: string;
            uri: string;
            attempts: number;
          }[]
        ).filter((row) => !active.has(row.token));
        for (const row of rows.slice(0, this.batch - active.size)) {
          active.set(
            row.token,
            this.resolve(row).finally(() => {
              active.delete(row.token);
              this.wakeWaiting(row.token);
            }),
          );
        }
      }
      if (active.size === 0) break;
      const nudged = new Promise<void>((resolve) => {
        this.nudge = resolve;
      });
      await Promise.race([...active.values(), nudged]);
      this.nudge = undefined;
    }
    await Promise.all(active.values());
    const next = this.nextDue.get() as number | null;
    if (this.wakeUp) clearTimeout(this.wakeUp);
    this.wakeUp = null;
    if (next !== null && !this.run.isStopped) {
      this.wakeUp = setTimeout(() => this.poke(), Math.max(0, next * 1000 - Date.now()) + 100);
      this.wakeUp.unref();
    }
  }

  /** Tells the readers waiting for this launch's logo that it was looked for. */
  private wakeWaiting(token: string): void {
    for (const wake of this.waiting.get(token) ?? []) wake();
    this.waiting.delete(token);
  }

  private async resolve(row: { token: string; uri: string; attempts: number }): Promise<void> {
    /** The metadata's details as JSON, once read: kept even when the logo cannot be had. */
    let details: string | null = null;
    try {
      const { image, metadata } = await this.media.resolveMetadataURI(row.uri, { background: true });
      details = JSON.stringify(launchDetailsOf(metadata));
      const logo = await this.media.fetchImage(image, { background: true });
      this.found.run(`/media/${logo.cid}`, details, row.token);
    } catch (error) {
      if (this.run.isStopped) return;
      const kind = linkFailureKind(error);
      if (kind === 'off') {
        this.held.run(row.token);
        return;
      }
      if (kind === 'final') {
        this.none.run(details, row.token);
        return;
      }
      if (kind === 'busy') {
        // This server's own fetch slots were full: not the link's fault, so it does not count as a try.
        this.later.run(row.attempts, Math.floor(Date.now() / 1000) + BUSY_RETRY_SECONDS, row.token);
        return;
      }
      const attempts = row.attempts + 1;
      if (attempts >= MAX_ATTEMPTS) {
        this.log.warn(`launch images: giving up on the logo of ${row.token} (${row.uri}) after ${attempts} tries`);
        this.none.run(details, row.token);
        return;
      }
      const wait = FIRST_RETRY_SECONDS * 2 ** (attempts - 1);
      this.later.run(attempts, Math.floor(Date.now() / 1000) + wait, row.token);
    }
  }
}

/**
 * The details a launch's metadata gives, each kept only when it passes the checks a launch made here passes (an
 * https:// website, an X or Telegram link or handle, a description without control characters): metadata written
 * elsewhere may hold anything, and the UI shows these as links.
 *
 * @example launchDetailsOf({ name: 'Owl', x: '@owl', website: 'javascript:alert(1)' }) // { x: 'https://x.com/owl' }
 */
export function launchDetailsOf(metadata: Record<string, unknown>): LaunchDetails {
  const details: LaunchDetails = {};
  for (const key of ['description', 'website', 'x', 'telegram'] as const) {
    // An invalid detail is left out; the others still show.
    const checked = tokenDetailsSchema.shape[key].safeParse(metadata[key]);
    if (checked.success && checked.data !== undefined) details[key] = checked.data;
  }
  return details;
}
