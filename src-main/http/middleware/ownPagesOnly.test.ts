import { describe, expect, it } from 'vitest';
import { isExtensionOrigin, otherSiteOf, type SentFrom } from './ownPagesOnly';

const HOST = '127.0.0.1:8787';
const OWN = `http://${HOST}`;

function sent(headers: Record<string, string>, method = 'GET', path = '/api/v1/quote'): SentFrom {
  const lower = Object.fromEntries(Object.entries({ host: HOST, ...headers }).map(([k, v]) => [k.toLowerCase(), v]));
  return { method, path, header: (name) => lower[name] };
}
const isPage = (path: string) => !path.startsWith('/api/');

describe('otherSiteOf', () => {
  it('passes bots, the own pages and the address bar', () => {
    const passed: Record<string, string>[] = [
      {},
      { 'sec-fetch-site': 'same-origin' },
      { 'sec-fetch-site': 'none' },
      { origin: OWN },
      { origin: OWN.toUpperCase(), 'sec-fetch-site': 'same-origin' },
    ];
    for (const headers of passed) {
      expect(otherSiteOf(sent(headers), isPage), JSON.stringify(headers)).toBeUndefined();
    }
  });

  it('refuses what a browser marks as sent for another site or origin, and foreign or opaque origins', () => {
    const refused: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { 'sec-fetch-site': 'cross-site', origin: OWN },
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { origin: 'http://127.0.0.1:8788' },
      { origin: 'http://localhost:8787' },
      { origin: `${OWN}.evil.example` },
      { origin: 'file://' },
      { origin: 'chrome-extension://abc/page' },
      { origin: 'chrome-extension-evil://abc' },
    ];
    for (const headers of refused) {
      expect(otherSiteOf(sent(headers), isPage), JSON.stringify(headers)).toBeDefined();
    }
  });

  it("passes a browser extension's origin, however its request is marked", () => {
    for (const origin of ['chrome-extension://nkbihfbeogaeaoehlefnkodbefgpgknn', 'moz-extension://2a5c-1e3b']) {
      expect(isExtensionOrigin(origin)).toBe(true);
      expect(otherSiteOf(sent({ origin, 'sec-fetch-site': 'cross-site' }), isPage)).toBeUndefined();
    }
    expect(isExtensionOrigin('https://chrome-extension.example')).toBe(false);
  });

  it('passes a top-level navigation to a page of the UI from another site, and nothing else of the kind', () => {
    const navigation = { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' };
    expect(otherSiteOf(sent(navigation, 'GET', '/settings'), isPage)).toBeUndefined();
    expect(otherSiteOf(sent(navigation, 'GET', '/api/v1/quote'), isPage)).toBeDefined();
    expect(otherSiteOf(sent(navigation, 'POST', '/settings'), isPage)).toBeDefined();
    expect(otherSiteOf(sent({ ...navigation, 'sec-fetch-dest': 'iframe' }, 'GET', '/'), isPage)).toBeDefined();
    expect(otherSiteOf(sent({ ...navigation, origin: 'https://evil.example' }, 'GET', '/'), isPage)).toBeUndefined();
  });
});
