import { promises as dns, type LookupAddress, type LookupOptions } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { addressRange } from '../../../src-shared/net/addressRange';
import { ServiceError, type ServiceErrorOptions } from '../../core/serviceError';

/** Every address a host name resolves to, as DNS answers (the system resolver by default; tests inject their own). */
export type ResolveHost = (hostname: string) => Promise<readonly { address: string; family: number }[]>;

/** The system resolver, every answer. */
export const systemResolve: ResolveHost = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

/**
 * Why a link fetch failed. `unreachable` covers refused, reset, closed, timed out and not found alike, so an answer
 * never tells whether something listens at an address.
 */
export type LinkFailure = 'forbidden' | 'unreachable' | 'status' | 'too-large' | 'redirects' | 'bad-redirect';

export class LinkFetchError extends ServiceError {
  constructor(
    readonly failure: LinkFailure,
    message: string,
    /** The HTTP status for `status`, the refused target for `bad-redirect`. */
    readonly detail?: string | number,
    options?: ServiceErrorOptions,
  ) {
    super(message, options);
    this.name = 'LinkFetchError';
  }
}

/** Loopback addresses a fetch may reach: none (the default), any (the devnet), or these ports only (tests). */
export type LoopbackAllowance = boolean | { ports: readonly number[] };

export interface LinkFetchOptions {
  resolve: ResolveHost;
  allowLoopback: LoopbackAllowance;
  /** One deadline for everything: lookups, connects, redirects and the body. */
  timeoutMs: number;
  /** Most body bytes read; more is `too-large`. */
  cap: number;
  accept: string;
  maxRedirects: number;
  /** A reason to refuse a redirect target before it is followed (scheme, credentials), or null. */
  checkRedirect: (url: URL) => string | null;
}

/**
 * Whether a fetch may connect to `address` on `port`: public addresses always, loopback only as allowed, and never
 * a private, link-local, shared (CGNAT), metadata, multicast or reserved one, however it is written.
 */
export function mayConnect(address: string, port: number, allowLoopback: LoopbackAllowance): boolean {
  const range = addressRange(address);
  if (range === 'public') return true;
  if (range !== 'loopback' || allowLoopback === false) return false;
  return allowLoopback === true || allowLoopback.ports.includes(port);
}

/**
 * GETs a link and reads its body up to a cap. The address is checked where the connection is made: a DNS lookup
 * hook on the socket refuses a name that resolves to any address `mayConnect` refuses, so a name cannot resolve to a
 * public address at a check and to a private one at the connect. Redirects are followed by hand, each hop checked
 * again the same way. Throws LinkFetchError.
 *
 * @example await fetchLink(new URL('https://example.com/logo.png'), { resolve: systemResolve, allowLoopback: false, … })
 */
export async function fetchLink(link: URL, options: LinkFetchOptions): Promise<Uint8Array> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  let url = link;
  for (let hop = 0; ; hop++) {
    const response = await get(url, options, signal);
    const location = response.headers.location;
    if (response.statusCode !== undefined && response.statusCode >= 300 && response.statusCode < 400 && location) {
      response.destroy();
      if (hop === options.maxRedirects) {
        throw new LinkFetchError('redirects', `redirected more than ${options.maxRedirects} times`);
      }
      const next = parseUrl(location, url);
      const problem = next ? options.checkRedirect(next) : 'is not a link';
      if (!next || problem) {
        throw new LinkFetchError('bad-redirect', `redirected to ${location.slice(0, 200)}, which ${problem}`, location);
      }
      url = next;
      continue;
    }
    const status = response.statusCode ?? 0;
    if (status < 200 || status > 299) {
      response.destroy();
      throw new LinkFetchError('status', `answered HTTP ${status}`, status);
    }
    if (Number(response.headers['content-length']) > options.cap) {
      response.destroy();
      throw new LinkFetchError('too-large', `is over ${options.cap} bytes`);
    }
    return readBody(response, options.cap, signal);
  }
}

/** One GET, no redirects followed, connecting only where `mayConnect` allows. Resolves once the headers are in. */
function get(url: URL, options: LinkFetchOptions, signal: AbortSignal): Promise<IncomingMessage> {
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const refused = () => new LinkFetchError('forbidden', 'points at a loopback, private or link-local address');
  // An address written in the link is not looked up, so the socket's hook never sees it: it is checked here.
  if (isIP(host) !== 0 && !mayConnect(host, port, options.allowLoopback)) return Promise.reject(refused());
  let forbidden = false;
  const lookup = guardedLookup(
    options.resolve,
    (address) => mayConnect(address, port, options.allowLoopback),
    () => {
      forbidden = true;
    },
  );
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(url, {
      method: 'GET',
      // A fresh socket per request: a pooled one would skip the lookup, and with it the check.
      agent: false,
      lookup,
      signal,
      headers: { accept: options.accept, 'accept-encoding': 'identity' },
    });
    request.on('response', resolve);
    request.on('error', (error) => {
      if (forbidden) reject(refused());
      // Refused, reset, timed out, not found, not HTTP: one answer, so nothing is learned about the address.
      else reject(new LinkFetchError('unreachable', 'could not be fetched', undefined, { cause: error }));
    });
    request.end();
  });
}

/** A lookup for the socket that answers only when every address of the name may be connected to. */
function guardedLookup(
  resolve: ResolveHost,
  allowed: (address: string) => boolean,
  onRefused: () => void,
): LookupFunction {
  return (hostname: string, lookupOptions: LookupOptions, callback) => {
    const answer = callback as (
      error: NodeJS.ErrnoException | null,
      address: string | LookupAddress[],
      family?: number,
    ) => void;
    resolve(hostname).then(
      (found) => {
        const wanted = lookupOptions.family === 4 || lookupOptions.family === 6 ? lookupOptions.family : 0;
        const usable = found.filter((entry) => wanted === 0 || entry.family === wanted);
        // One private answer among public ones is enough to refuse: the connect could pick it.
        if (found.some((entry) => !allowed(entry.address))) {
          onRefused();
          answer(Object.assign(new Error(`${hostname} resolves to a refused address`), { code: 'EREFUSEDADDR' }), '');
          return;
        }
        const first = usable[0];
        if (!first) {
          answer(Object.assign(new Error(`${hostname} was not found`), { code: 'ENOTFOUND' }), '');
          return;
        }
        if (lookupOptions.all)
          answer(
            null,
            usable.map((entry) => ({ address: entry.address, family: entry.family })),
          );
        else answer(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => answer(error, ''),
    );
  };
}

async function readBody(response: IncomingMessage, cap: number, signal: AbortSignal): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of response as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > cap) {
        response.destroy();
        throw new LinkFetchError('too-large', `is over ${cap} bytes`);
      }
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof LinkFetchError) throw error;
    throw new LinkFetchError('unreachable', 'could not be fetched', undefined, { cause: error });
  }
  // A body cut short by the deadline ends without an error on some paths: only a whole answer counts.
  if (signal.aborted || !response.complete) {
    throw new LinkFetchError('unreachable', 'could not be fetched', undefined, { cause: signal.reason });
  }
  return new Uint8Array(Buffer.concat(chunks));
}

function parseUrl(text: string, base?: URL): URL | null {
  try {
    return new URL(text.trim(), base);
  } catch {
    return null;
  }
}
