import { type Address, type Hex, pad, toHex } from 'viem';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../core/errors';
import { IndexStore } from '../store/indexStore';
import { openDatabase } from '../store/openDatabase';
import { LaunchImages, launchDetailsOf } from './launchImages';
import { ThirdPartyFetchesOff } from './media/guardedFetch';
import { LinkFetchError } from './media/linkFetch';

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

const OTHER_CID = 'bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e';

/** The media store's answers for these tests' links; `off` plays the Settings switch turned off. */
function fakeMedia(off = false) {
  const fetched: string[] = [];
  const unreachable = (field: string) =>
    new ApiError('INVALID_METADATA_URI', 'the metadata link could not be fetched', {
      field,
      cause: new LinkFetchError('unreachable', 'could not be fetched'),
    });
  const offError = () =>
    new ApiError('INVALID_METADATA_URI', 'third-party fetches are off', { cause: new ThirdPartyFetchesOff() });
  return {
    fetched,
    fetchesThirdParty: !off,
    backgroundSlots: 2,
    resolveMetadataURI: async (uri: string, budget: { background?: boolean }) => {
      expect(budget.background).toBe(true);
      if (uri === 'ipfs://stored') return { uri, metadata: {}, image: `ipfs://${CID}` };
      if (off) throw offError();
      fetched.push(uri);
      if (uri === 'https://elsewhere/meta') return { uri, metadata: {}, image: 'https://elsewhere/logo.png' };
      if (uri === 'https://gone/meta') return { uri, metadata: {}, image: `ipfs://${OTHER_CID}` };
      if (uri === 'https://bad/meta') throw new ApiError('MISSING_IMAGE', 'no image');
      if (uri === 'https://busy/meta') throw new ApiError('UPLOADS_BUSY', 'busy');
      throw unreachable('metadataURI');
    },
    fetchImage: async (link: string, budget: { background?: boolean }) => {
      expect(budget.background).toBe(true);
      if (link === `ipfs://${CID}`) return { cid: CID };
      if (link === 'https://elsewhere/logo.png') {
        fetched.push(link);
        return { cid: OTHER_CID };
      }
      throw new ApiError('INVALID_IMAGE', `${link} is not stored on this server`, { field: 'image' });
    },
  };
}

describe('LaunchImages', () => {
  it('stores each logo here and keeps its path, gives up on bad metadata and retries unreachable links later', async () => {
    const { db, store } = launches([
      'ipfs://stored',
      'https://elsewhere/meta',
      'https://bad/meta',
      'https://down/meta',
      'https://busy/meta',
      'https://gone/meta',
    ]);
    const images = new LaunchImages(db, fakeMedia() as never);
    const before = Math.floor(Date.now() / 1000);
    images.poke();
    await images.settled();
    expect(state(db, 0)).toMatchObject({ state: 'found', image: `/media/${CID}` });
    // A remote logo is fetched and served from here: the UI never loads another origin.
    expect(state(db, 1)).toMatchObject({ state: 'found', image: `/media/${OTHER_CID}` });
    expect(state(db, 2)).toMatchObject({ state: 'none', image: null });
    // Unreachable: one try counted, the next a minute on.
    expect(state(db, 3)).toMatchObject({ state: 'retry', attempts: 1 });
    expect(state(db, 3).nextAttempt).toBeGreaterThanOrEqual(before + 60);
    // This server too busy: tried again soon, not counted against the link.
    expect(state(db, 4)).toMatchObject({ state: 'retry', attempts: 0 });
    expect(state(db, 4).nextAttempt).toBeLessThan(before + 60);
    // A logo only on IPFS, not stored here: there is no gateway to fetch it from.
    expect(state(db, 5)).toMatchObject({ state: 'none', image: null });
    expect(store.launch(address(100))?.image).toBe(`/media/${CID}`);
    await images.stop();
  });

  it('holds launches whose metadata is elsewhere while third-party fetches are off, and reads them once on again', async () => {
    const { db } = launches(['ipfs://stored', 'https://elsewhere/meta']);
    const off = fakeMedia(true);
    const images = new LaunchImages(db, off as never);
    images.poke();
    await images.settled();
    await images.stop();
    expect(off.fetched).toEqual([]);
    expect(state(db, 0)).toMatchObject({ state: 'found', image: `/media/${CID}` });
    expect(state(db, 1)).toMatchObject({ state: 'held', image: null });

    const on = fakeMedia(false);
    const later = new LaunchImages(db, on as never);
    later.poke();
    await later.settled();
    await later.stop();
    expect(on.fetched).toEqual(['https://elsewhere/meta', 'https://elsewhere/logo.png']);
    expect(state(db, 1)).toMatchObject({ state: 'found', image: `/media/${OTHER_CID}` });
  });

  it('reads held launches as soon as the person turns fetches on, without a restart', async () => {
    const { db } = launches(['https://elsewhere/meta']);
    const media = fakeMedia(true);
    const images = new LaunchImages(db, media as never);
    images.poke();
    await images.settled();
    expect(state(db, 0)).toMatchObject({ state: 'held' });
    // What the media store's switch does when the person says yes.
    Object.assign(media, fakeMedia(false), { fetched: media.fetched });
    images.resumeHeld();
    await images.settled();
    await images.stop();
    expect(state(db, 0)).toMatchObject({ state: 'found', image: `/media/${OTHER_CID}` });
  });

  it('looks again for a logo the cache removed, for the launches that showed it, and for no other CID', async () => {
    const { db } = launches(['https://elsewhere/meta', 'ipfs://stored']);
    const media = fakeMedia();
    const images = new LaunchImages(db, media as never);
    images.poke();
    await images.settled();
    expect(media.fetched).toEqual(['https://elsewhere/meta', 'https://elsewhere/logo.png']);
    await images.fetchAgain(OTHER_CID);
    expect(media.fetched).toHaveLength(4);
    expect(state(db, 0)).toMatchObject({ state: 'found', image: `/media/${OTHER_CID}`, attempts: 0 });
    // A CID no launch shows starts nothing.
    await images.fetchAgain('bafkreiaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa');
    expect(media.fetched).toHaveLength(4);
    await images.stop();
  });
});

describe('launchDetailsOf', () => {
  it("keeps the metadata's valid details as links and leaves out the invalid ones", () => {
    expect(
      launchDetailsOf({
        name: 'Owl',
        description: 'An owl.',
        website: 'javascript:alert(1)',
        x: '@owl',
        telegram: 'https://t.me/owl_chat',
      }),
    ).toEqual({ description: 'An owl.', x: 'https://x.com/owl', telegram: 'https://t.me/owl_chat' });
    expect(launchDetailsOf({ website: 42, x: '' })).toEqual({});
  });
});
