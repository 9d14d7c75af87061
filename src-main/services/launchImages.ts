import { ApiError } from '../core/errors';
import type { Db } from '../store/openDatabase';
import { CoalescedRun } from './coalescedRun';
import type { MediaStore } from './mediaStore';

/** Launches whose metadata is read at once. */
const BATCH = 8;
/** Tries before a launch whose metadata cannot be reached is shown without a logo for good. */
const MAX_ATTEMPTS = 6;
const FIRST_RETRY_SECONDS = 60;
const BUSY_RETRY_SECONDS = 10;

/** Codes meaning the metadata was read and has no usable logo: trying again will not change that. */
const FINAL_CODES = new Set(['MISSING_IMAGE', 'INVALID_METADATA', 'INVALID_METADATA_URI']);

/**
 * Finds each indexed launch's logo in its metadata, after the launch is indexed: reading metadata is network work and
 * must not hold the indexer up. A logo stored on this server is kept as its path (`/media/<cid>`), any other link as
 * it is; metadata that cannot be reached is tried again later, with growing pauses.
 */
export class LaunchImages {
  private readonly due;
  private readonly found;
  private readonly none;
  private readonly later;
  private readonly nextDue;
  private wakeUp: NodeJS.Timeout | null = null;
  private readonly run = new CoalescedRun(async () => {
    await this.drain();
    return true;
  });

  constructor(
    db: Db,
    private readonly media: Pick<MediaStore, 'resolveMetadataURI' | 'has'>,
    private readonly log: (line: string) => void = () => {},
  ) {
    this.due = db.prepare(
      `SELECT i.token, l.metadata_uri AS uri, i.attempts FROM launch_images i JOIN launches l ON l.token = i.token
       WHERE i.state IN ('pending', 'retry') AND i.next_attempt <= ? ORDER BY l.block, l.log_index LIMIT ?`,
    );
    this.found = db.prepare("UPDATE launch_images SET state = 'found', image = ? WHERE token = ?");
    this.none = db.prepare("UPDATE launch_images SET state = 'none', image = NULL WHERE token = ?");
    this.later = db.prepare("UPDATE launch_images SET state = 'retry', attempts = ?, next_attempt = ? WHERE token = ?");
    this.nextDue = db.prepare("SELECT min(next_attempt) FROM launch_images WHERE state = 'retry'").pluck();
  }

  /** Looks for launches waiting for their logo (coalesced with a pass under way). */
  poke(): void {
    this.run.poke();
  }

  /** Resolves when no pass is under way. */
  settled(): Promise<void> {
    return this.run.settled();
  }

  stop(): Promise<void> {
    if (this.wakeUp) clearTimeout(this.wakeUp);
    return this.run.stop();
  }

  /** Resolves the logos of every launch that is due, a few at a time, and wakes up when the next retry is due. */
  private async drain(): Promise<void> {
    while (!this.run.isStopped) {
      const rows = this.due.all(Math.floor(Date.now() / 1000), BATCH) as {
        token: string;
        uri: string;
        attempts: number;
      }[];
      if (rows.length === 0) break;
      await Promise.all(rows.map((row) => this.resolve(row)));
    }
    const next = this.nextDue.get() as number | null;
    if (this.wakeUp) clearTimeout(this.wakeUp);
    this.wakeUp = null;
    if (next !== null && !this.run.isStopped) {
      this.wakeUp = setTimeout(() => this.poke(), Math.max(0, next * 1000 - Date.now()) + 100);
      this.wakeUp.unref();
    }
  }

  private async resolve(row: { token: string; uri: string; attempts: number }): Promise<void> {
    try {
      const { image } = await this.media.resolveMetadataURI(row.uri);
      this.found.run(await this.link(image), row.token);
    } catch (error) {
      if (this.run.isStopped) return;
      if (error instanceof ApiError && FINAL_CODES.has(error.code)) {
        this.none.run(row.token);
        return;
      }
      if (error instanceof ApiError && error.code === 'UPLOADS_BUSY') {
        // This server's own fetch slots were full: not the link's fault, so it does not count as a try.
        this.later.run(row.attempts, Math.floor(Date.now() / 1000) + BUSY_RETRY_SECONDS, row.token);
        return;
      }
      const attempts = row.attempts + 1;
      if (attempts >= MAX_ATTEMPTS) {
        this.log(`launch images: giving up on the metadata of ${row.token} (${row.uri}) after ${attempts} tries`);
        this.none.run(row.token);
        return;
      }
      const wait = FIRST_RETRY_SECONDS * 2 ** (attempts - 1);
      this.later.run(attempts, Math.floor(Date.now() / 1000) + wait, row.token);
    }
  }

  /** `ipfs://<cid>` of a file stored here becomes `/media/<cid>`; other links stay as they are. */
  private async link(image: string): Promise<string> {
    const cid = /^ipfs:\/\/(?:ipfs\/)?([a-z2-7]{59})$/i.exec(image.trim())?.[1];
    if (cid && (await this.media.has(cid.toLowerCase()))) return `/media/${cid.toLowerCase()}`;
    return image;
  }
}
