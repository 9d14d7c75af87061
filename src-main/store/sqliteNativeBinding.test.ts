import { describe, expect, it } from 'vitest';
import { openDatabase } from './openDatabase';
import { electronSqliteAddon, sqliteNativeBinding } from './sqliteNativeBinding';

describe('sqliteNativeBinding', () => {
  it("leaves plain Node on node_modules' own build", () => {
    expect(process.versions.electron).toBeUndefined();
    expect(sqliteNativeBinding()).toBeUndefined();
    const db = openDatabase(':memory:', []);
    expect(db.prepare('SELECT 1 AS one').get()).toEqual({ one: 1 });
    db.close();
  });

  it('names one folder per Electron version, platform and architecture under out/native', () => {
    expect(electronSqliteAddon('45.4.1', 'darwin', 'arm64')).toBe(
      'out/native/electron-45.4.1-darwin-arm64/better_sqlite3.node',
    );
  });
});
