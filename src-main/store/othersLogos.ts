import { findRawCids } from '../core/media/cid';
import type { Db } from './openDatabase';

/**
 * The CIDs of other people's logos as stored data names them: the logos of indexed launches, less any CID a launch's
 * metadata link or an open prepared request names (those are the person's own launches and builds). An earlier
 * version kept these with the person's own files; the media store moves them into its cache once.
 *
 * @example new ContentStore({ dataDir, earlierOthers: () => othersLogoCids(db) })
 */
export function othersLogoCids(db: Db): Set<string> {
  const cidsIn = (sql: string) => {
    const found = new Set<string>();
    for (const text of db.prepare(sql).pluck().iterate() as Iterable<string>) {
      for (const cid of findRawCids(text)) found.add(cid);
    }
    return found;
  };
  const logos = cidsIn('SELECT image FROM launch_images WHERE image IS NOT NULL');
  const own = cidsIn(
    `SELECT metadata_uri FROM launches
     UNION ALL SELECT request || ' ' || coalesce(build, '') FROM intents WHERE state IN ('pending', 'built', 'sent')`,
  );
  for (const cid of own) logos.delete(cid);
  return logos;
}
