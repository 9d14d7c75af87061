import { findRawCids } from '../core/media/cid';
import type { Db } from './openDatabase';

/**
 * The media files something stored still points at, so the media folder's size cap never removes them: the metadata
 * and logo of every indexed launch, and whatever a prepared request not yet confirmed names (its request and build
 * carry the image and metadata links of a launch still to be signed or mined).
 */
export class MediaReferences {
  private readonly texts;

  constructor(db: Db) {
    this.texts = db
      .prepare(
        `SELECT metadata_uri FROM launches
         UNION ALL SELECT image FROM launch_images WHERE image IS NOT NULL
         UNION ALL SELECT request || ' ' || coalesce(build, '') FROM intents WHERE state IN ('pending', 'built', 'sent')`,
      )
      .pluck();
  }

  /** The CIDs named by stored launches and open prepared requests. */
  cids(): Set<string> {
    const found = new Set<string>();
    for (const text of this.texts.iterate() as Iterable<string>) {
      for (const cid of findRawCids(text)) found.add(cid);
    }
    return found;
  }
}
