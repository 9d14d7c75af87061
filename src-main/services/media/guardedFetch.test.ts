import { describe, expect, it } from 'vitest';
import { ApiError } from '../../core/errors';
import { LogoLargerThanCache } from './contentStore';
import { GuardedFetcher, linkFailureKind, linkProblem, ThirdPartyFetchesOff } from './guardedFetch';
import { LinkFetchError } from './linkFetch';

describe('linkProblem: which links may be fetched at all', () => {
  it.each([
    ['https://example.com/logo.png', false, null],
    ['http://example.com/logo.png', false, 'is http://, and only https:// links are accepted'],
    ['ftp://example.com/logo.png', true, 'is ftp://, and only https:// links are accepted'],
    ['https://user:pw@example.com/', false, 'carries a user name or password'],
    ['https://169.254.169.254/latest', false, 'points at a link-local network address (169.254.169.254)'],
    ['https://10.0.0.1/', true, 'points at a private network address (10.0.0.1)'],
    ['https://[::ffff:7f00:1]/', false, 'points at this machine ([::ffff:7f00:1])'],
    ['https://127.0.0.1/', false, 'points at this machine (127.0.0.1)'],
    ['http://localhost:8080/a.png', false, 'points at this machine (localhost)'],
    ['http://localhost:8080/a.png', true, null],
    ['http://127.0.0.1:8080/a.png', { ports: [8080] }, null],
    ['http://127.0.0.1:9090/a.png', { ports: [8080] }, 'points at this machine (127.0.0.1)'],
    ['https://169.254.169.254/', true, 'points at a link-local network address (169.254.169.254)'],
  ] as const)('%s with loopback %j: %s', (link, allowLoopback, problem) => {
    expect(linkProblem(new URL(link), allowLoopback)).toBe(problem);
  });
});

describe('linkFailureKind: what a failed background read means for the next try', () => {
  const linkError = (error: LinkFetchError) => new ApiError('INVALID_IMAGE', 'x', { cause: error });

  it('tells apart switched off, busy, worth another try, and final', () => {
    expect(linkFailureKind(new ApiError('INVALID_IMAGE', 'off', { cause: new ThirdPartyFetchesOff() }))).toBe('off');
    expect(linkFailureKind(new ApiError('UPLOADS_BUSY', 'busy'))).toBe('busy');
    expect(linkFailureKind(new ApiError('STORAGE_UNAVAILABLE', 'disk'))).toBe('transient');
    const neverFits = new ApiError('STORAGE_UNAVAILABLE', 'too large', { cause: new LogoLargerThanCache(400, 300) });
    expect(linkFailureKind(neverFits)).toBe('final');
    expect(linkFailureKind(new Error('anything else'))).toBe('transient');
    expect(linkFailureKind(linkError(new LinkFetchError('unreachable', 'could not be fetched')))).toBe('transient');
    expect(linkFailureKind(linkError(new LinkFetchError('status', 'answered HTTP 503', 503)))).toBe('transient');
    expect(linkFailureKind(linkError(new LinkFetchError('status', 'answered HTTP 429', 429)))).toBe('transient');
    expect(linkFailureKind(linkError(new LinkFetchError('status', 'answered HTTP 404', 404)))).toBe('final');
    expect(linkFailureKind(linkError(new LinkFetchError('forbidden', 'points at a private address')))).toBe('final');
    expect(linkFailureKind(new ApiError('UNSUPPORTED_IMAGE', 'not an image'))).toBe('final');
  });
});

describe('GuardedFetcher', () => {
  it('refuses a background read while third-party fetches are off, and lets the user own reads through', () => {
    const off = new GuardedFetcher({ thirdPartyFetches: false });
    expect(off.fetchesThirdParty).toBe(false);
    expect(() => off.refuseWhenOff('INVALID_METADATA_URI', 'metadataURI', {})).not.toThrow();
    const refused = (() => {
      try {
        off.refuseWhenOff('INVALID_METADATA_URI', 'metadataURI', { background: true });
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toMatchObject({ code: 'INVALID_METADATA_URI', field: 'metadataURI' });
    expect((refused as ApiError).cause).toBeInstanceOf(ThirdPartyFetchesOff);
    // Off until the person chooses; on once they do.
    const unchosen = new GuardedFetcher();
    expect(unchosen.fetchesThirdParty).toBe(false);
    expect(() => unchosen.refuseWhenOff('INVALID_IMAGE', 'image', { background: true })).toThrow();
    unchosen.setFetchesThirdParty(true);
    expect(() => unchosen.refuseWhenOff('INVALID_IMAGE', 'image', { background: true })).not.toThrow();
  });

  it('answers a refused address as the link code, with the fetch failure kept as its cause, without connecting', async () => {
    const fetcher = new GuardedFetcher({ resolveHost: async () => [{ address: '10.0.0.5', family: 4 }] });
    const failure = await fetcher
      .fetch(new URL('https://inside.example/logo.png'), 1_000, {
        what: 'image',
        field: 'image',
        linkCode: 'INVALID_IMAGE',
        cap: 1024,
        tooLarge: () => new ApiError('IMAGE_TOO_LARGE', 'too large'),
        accept: 'image/png',
      })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'INVALID_IMAGE', field: 'image' });
    expect((failure as ApiError).cause).toMatchObject({ failure: 'forbidden' });
  });
});
