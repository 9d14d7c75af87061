import { type Address, type Hex, pad, toHex } from 'viem';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../core/errors';
import { IndexStore } from '../store/indexStore';
import { openDatabase } from '../store/openDatabase';
import { LaunchImages } from './launchImages';

const address = (n: number) => pad(toHex(n), { size: 20 }) as Address;
const CID = 'bafkreihxercxzewntg6xtowdlz7k6av427s3qdd6taeontiuhsnz7bi4am';

/** A database with one indexed launch per metadata URI, in order. */
function launches(uris: string[]) {
  const db = openDatabase(':memory:');
  const store = new IndexStore(db);
  store.open({ chainId: 1, factory: address(1), router: address(2), referrals: null, fromBlock: 1 });
  uris.forEach((metadataURI, i) => {
    const block = i + 1;
    store.write({
      events: [
        {
          kind: 'launched',
          block,
          logIndex: 0,
          txHash: pad(toHex(block), { size: 32 }) as Hex,
          token: address(100 + i),
          creator: address(9),
          pool: address(200 + i),
          pair: address(3),
          fee: 10000,
          supply: 1n,
          openingTick: 0,
          salt: pad('0x1', { size: 32 }) as Hex,
          name: `T${i}`,
          symbol: `T${i}`,
          metadataURI,
          royaltyTo: address(0),
          burnBps: 0,
          ranges: [],
        },
      ],
      timestamps: new Map([[block, 1]]),
      hashes: new Map([[block, pad(toHex(block), { size: 32 }) as Hex]]),
      to: block,
    });
  });
  return { db, store };
}

const state = (db: ReturnType<typeof openDatabase>, i: number) =>
  db
    .prepare('SELECT state, image, attempts, next_attempt AS nextAttempt FROM launch_images WHERE token = ?')
    .get(address(100 + i)) as {
    state: string;
    image: string | null;
    attempts: number;
    nextAttempt: number;
  };

describe('LaunchImages', () => {
  it('finds logos, keeps stored ones as paths, gives up on bad metadata and retries unreachable links later', async () => {
    const { db, store } = launches([
      'ipfs://stored',
      'https://elsewhere/meta',
      'https://bad/meta',
      'https://down/meta',
      'https://busy/meta',
    ]);
    const media = {
      resolveMetadataURI: async (uri: string) => {
        if (uri === 'ipfs://stored') return { uri, metadata: {}, image: `ipfs://${CID}` };
        if (uri === 'https://elsewhere/meta') return { uri, metadata: {}, image: 'https://elsewhere/logo.png' };
        if (uri === 'https://bad/meta') throw new ApiError('MISSING_IMAGE', 'no image');
        if (uri === 'https://busy/meta') throw new ApiError('UPLOADS_BUSY', 'busy');
        throw new Error('connect ECONNREFUSED');
      },
      has: async (cid: string) => cid === CID,
    };
    const images = new LaunchImages(db, media as never);
    const before = Math.floor(Date.now() / 1000);
    images.poke();
    await images.settled();
    expect(state(db, 0)).toMatchObject({ state: 'found', image: `/media/${CID}` });
    expect(state(db, 1)).toMatchObject({ state: 'found', image: 'https://elsewhere/logo.png' });
    expect(state(db, 2)).toMatchObject({ state: 'none', image: null });
    // Unreachable: one try counted, the next a minute on.
    expect(state(db, 3)).toMatchObject({ state: 'retry', attempts: 1 });
    expect(state(db, 3).nextAttempt).toBeGreaterThanOrEqual(before + 60);
    // This server too busy: tried again soon, not counted against the link.
    expect(state(db, 4)).toMatchObject({ state: 'retry', attempts: 0 });
    expect(state(db, 4).nextAttempt).toBeLessThan(before + 60);
    expect(store.launch(address(100))?.image).toBe(`/media/${CID}`);
    await images.stop();
  });
});
