import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../../core/errors';
import { ownOrigin } from './sameOriginWrites';

/**
 * The schemes of browser extensions' own origins. A wallet extension (MetaMask and the like) calls an RPC from its
 * background page, whose Origin is `chrome-extension://<id>` (Chrome, Edge, Brave), `moz-extension://<uuid>` (Firefox)
 * or `safari-web-extension://<uuid>`. No web page can send one: Origin is set by the browser, never by a page's script.
 */
const EXTENSION_SCHEMES = new Set(['chrome-extension', 'moz-extension', 'safari-web-extension']);

/** The Sec-Fetch-Site values with which a browser says a request was sent for a page of another origin. */
const OTHER_SITES = new Set(['cross-site', 'same-site']);

/** Whether an Origin header names a browser extension rather than a web page. */
export function isExtensionOrigin(origin: string): boolean {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\/[^/]+$/.exec(origin.trim().toLowerCase())?.[1];
  return scheme !== undefined && EXTENSION_SCHEMES.has(scheme);
}

/** What ownPagesOnly reads of a request: its headers, by lower-case name. */
export interface SentFrom {
  method: string;
  path: string;
  header(name: string): string | undefined;
}

/**
 * Why a request sent by a browser for a page of another origin is refused, or undefined when it is not one. Passed:
 * no Origin and no Sec-Fetch-Site (a bot, curl), Sec-Fetch-Site `same-origin` (this server's own pages) or `none`
 * (typed in the address bar, a bookmark), this server's own Origin, and a browser extension's (see EXTENSION_SCHEMES),
 * which a person installed and which no page can pose as. Refused: Sec-Fetch-Site `cross-site`, and `same-site` too,
 * since another port of 127.0.0.1 is another origin of the same site; and an Origin that is neither ours nor an
 * extension's ("null" from a sandboxed frame or a file:// page included). Sec-Fetch-Site is what catches an `<img>` or a
 * no-cors GET, which send no Origin; Origin catches the browsers that do not send Sec-Fetch-Site yet.
 *
 * `isPage` names the web UI's pages: a top-level navigation to one from another site (a link someone followed) is let
 * through. It hands that site nothing: it cannot read the page, the page refuses to be framed (X-Frame-Options), and
 * everything the page then asks is asked from our own origin.
 */
export function otherSiteOf(request: SentFrom, isPage: (path: string) => boolean): string | undefined {
  const origin = request.header('origin');
  if (origin !== undefined && isExtensionOrigin(origin)) return undefined;
  const own = ownOrigin(request.header('host'));
  const site = request.header('sec-fetch-site')?.trim().toLowerCase();
  if (site !== undefined && OTHER_SITES.has(site)) {
    if (isPageNavigation(request, isPage)) return undefined;
    return origin === undefined
      ? `a page on another ${site === 'same-site' ? 'origin' : 'site'}`
      : origin.slice(0, 100);
  }
  if (origin !== undefined && origin.trim().toLowerCase() !== own) return origin.slice(0, 100);
  return undefined;
}

/** A browser opening one of the web UI's pages in a window or tab of its own, not loading it into another page. */
function isPageNavigation(request: SentFrom, isPage: (path: string) => boolean): boolean {
  return (
    (request.method === 'GET' || request.method === 'HEAD') &&
    request.header('sec-fetch-mode') === 'navigate' &&
    request.header('sec-fetch-dest') === 'document' &&
    isPage(request.path)
  );
}

/**
 * Refuses, on every route, reads included, a request a browser sent for a page of another origin (ORIGIN_NOT_ALLOWED;
 * see otherSiteOf for what passes). Reads too, because a page elsewhere that cannot read the answer can still make the
 * browser spend what every local client shares: the quote budget, challenges stored, event streams held open.
 */
export function ownPagesOnly(isPage: (path: string) => boolean = () => false): MiddlewareHandler {
  return async (c, next) => {
    const request: SentFrom = { method: c.req.method, path: c.req.path, header: (name) => c.req.header(name) };
    const other = otherSiteOf(request, isPage);
    if (other !== undefined) {
      const own = ownOrigin(c.req.header('host'));
      throw new ApiError(
        'ORIGIN_NOT_ALLOWED',
        `a request from ${other} is refused: this server answers only its own pages at ${own}, bots and wallet extensions`,
        {
          fix: `Use the app's own pages at ${own}/; a bot or script sends no Origin and no Sec-Fetch-Site, and a wallet extension calls /rpc from its own origin.`,
        },
      );
    }
    await next();
  };
}
