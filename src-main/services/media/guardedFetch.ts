import { isIP } from 'node:net';
import { addressRange, isLoopbackName } from '../../../src-shared/net/addressRange';
import { ApiError } from '../../core/errors';
import { ServiceError } from '../../core/serviceError';
import { LogoLargerThanCache } from './contentStore';
import {
  fetchLink,
  LinkFetchError,
  type LoopbackAllowance,
  mayConnect,
  type ResolveHost,
  systemResolve,
} from './linkFetch';
import type { FetchBudget } from './mediaSlots';

const MAX_REDIRECTS = 3;

/** Why a background fetch was not made: third-party fetches are switched off. */
export class ThirdPartyFetchesOff extends ServiceError {
  constructor() {
    super('third-party fetches are switched off in Settings');
    this.name = 'ThirdPartyFetchesOff';
  }
}

/**
 * How a failed link read should be taken: `off` (fetches switched off), `busy` (this server's slots were full),
 * `transient` (no whole answer, or a server error: try again later), `final` (the link or what it serves is unusable).
 */
export function linkFailureKind(error: unknown): 'off' | 'busy' | 'transient' | 'final' {
  if (!(error instanceof ApiError)) return 'transient';
  if (error.code === 'UPLOADS_BUSY') return 'busy';
  // A logo larger than the cache's whole share never fits: fetching it again would only download it again.
  if (error.code === 'STORAGE_UNAVAILABLE') return error.cause instanceof LogoLargerThanCache ? 'final' : 'transient';
  const cause = error.cause;
  if (cause instanceof ThirdPartyFetchesOff) return 'off';
  if (cause instanceof LinkFetchError) {
    if (cause.failure === 'unreachable') return 'transient';
    if (cause.failure === 'status' && (Number(cause.detail) >= 500 || cause.detail === 429)) return 'transient';
  }
  return 'final';
}

/**
 * Why a link may not be fetched, or null when it may: https:// (or http:// to this machine, when loopback links are
 * allowed) without credentials, and not an address written in the link that may not be reached. Names are checked
 * again when connecting, against what they resolve to.
 *
 * @example linkProblem(new URL('https://169.254.169.254/'), false) // 'points at a link-local network address (169.254.169.254)'
 */
export function linkProblem(url: URL, allowLoopback: LoopbackAllowance): string | null {
  if (url.username || url.password) return 'carries a user name or password';
  const loopbackName = isLoopbackName(url.hostname);
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopbackName)) {
    return `is ${url.protocol}//, and only https:// links are accepted`;
  }
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(literal) !== 0 && !mayConnect(literal, port, allowLoopback)) {
    const range = addressRange(literal);
    return range === 'loopback'
      ? `points at this machine (${url.hostname})`
      : `points at a ${range} network address (${url.hostname})`;
  }
  if (loopbackName && !mayConnect('127.0.0.1', port, allowLoopback)) {
    return `points at this machine (${url.hostname})`;
  }
  return null;
}

/** What differs between fetching an image link and a metadata link. */
export interface FetchRules {
  what: 'image' | 'metadata';
  field: string;
  /** The code of a link that cannot be used. */
  linkCode: 'INVALID_IMAGE' | 'INVALID_METADATA_URI';
  cap: number;
  tooLarge: () => ApiError;
  accept: string;
}

export interface GuardedFetcherOptions {
  /**
   * Lets links reach this machine (http(s)://127.0.0.1, localhost, a name resolving to loopback): the devnet allows
   * any port so tests run offline; `{ ports }` allows only those. Private, link-local and metadata addresses are
   * refused whatever it says.
   */
  allowLoopbackLinks?: LoopbackAllowance;
  /** How host names are resolved (the system resolver by default); checked on each connection. */
  resolveHost?: ResolveHost;
  /**
   * Whether background fetches may reach other people's hosts at all (default false: off until the person chooses);
   * false fetches nothing.
   */
  thirdPartyFetches?: boolean;
}

/**
 * The service's outbound fetches of image and metadata links, and the rules they are made under: which links may be
 * fetched at all (`problemWith`), whether a background fetch may be made (the third-party switch), and the fetch
 * itself, with the address guard on each connection, redirects checked hop by hop, one deadline and a size cap. Its
 * failures are the API's errors, with the field and code the rules give and the fetch failure as their cause.
 *
 * @example
 * const fetcher = new GuardedFetcher({ allowLoopbackLinks: false });
 * fetcher.problemWith(new URL('http://example.com/a.png')) // 'is http://, and only https:// links are accepted'
 */
export class GuardedFetcher {
  private readonly allowLoopbackLinks: LoopbackAllowance;
  private readonly resolveHost: ResolveHost;
  private thirdPartyFetches: boolean;

  constructor(options: GuardedFetcherOptions = {}) {
    this.allowLoopbackLinks = options.allowLoopbackLinks ?? false;
    this.resolveHost = options.resolveHost ?? systemResolve;
    this.thirdPartyFetches = options.thirdPartyFetches ?? false;
  }

  /** Whether background fetches may reach other people's hosts (the person's choice). */
  get fetchesThirdParty(): boolean {
    return this.thirdPartyFetches;
  }

  /** The person changed their choice: it holds for every background fetch from now on. */
  setFetchesThirdParty(on: boolean): void {
    this.thirdPartyFetches = on;
  }

  /** Why this link may not be fetched here, or null when it may (see `linkProblem`). */
  problemWith(url: URL): string | null {
    return linkProblem(url, this.allowLoopbackLinks);
  }

  /** While third-party fetches are off, a background read that would need the network is not made. */
  refuseWhenOff(code: 'INVALID_IMAGE' | 'INVALID_METADATA_URI', field: string, budget: FetchBudget): void {
    if (budget.background && !this.thirdPartyFetches) {
      throw new ApiError(code, "fetching other people's logos is off (Settings, Privacy), so this link is not read", {
        field,
        cause: new ThirdPartyFetchesOff(),
      });
    }
  }

  /**
   * Fetches a checked link: each connection checked against what its name resolves to, redirects re-checked hop by
   * hop, one deadline for everything, a capped body. Failures to connect, refused, closed or timed out, give one
   * message, so an answer never tells whether something listens at an address.
   */
  async fetch(link: URL, timeoutMs: number, rules: FetchRules): Promise<Uint8Array> {
    try {
      return await fetchLink(link, {
        resolve: this.resolveHost,
        allowLoopback: this.allowLoopbackLinks,
        timeoutMs,
        cap: rules.cap,
        accept: rules.accept,
        maxRedirects: MAX_REDIRECTS,
        checkRedirect: (next) => this.problemWith(next),
      });
    } catch (error) {
      if (!(error instanceof LinkFetchError)) throw error;
      if (error.failure === 'too-large') throw rules.tooLarge();
      const message =
        error.failure === 'unreachable'
          ? `the ${rules.what} link could not be fetched: no whole answer came within ${timeoutMs / 1000} s`
          : `the ${rules.what} link ${error.message}`;
      throw new ApiError(rules.linkCode, message, { field: rules.field, cause: error });
    }
  }
}
