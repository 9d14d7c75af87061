import { describe, expect, it } from 'vitest';
import { appPathOfLink, DEFAULT_PUBLIC_LINK_BASE, publicLinkBaseProblem, referralLink } from './appPages';

const REFERRER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

describe('referralLink', () => {
  it('puts the page and the referrer under the public base, keeping its path prefix', () => {
    expect(
      referralLink('https://pad.example/app/', '/token/0x5FbDB2315678afecb367f032d93F642f64180aa3?side=sell', REFERRER),
    ).toBe(`https://pad.example/app/token/0x5FbDB2315678afecb367f032d93F642f64180aa3?side=sell&r=${REFERRER}`);
    expect(referralLink(DEFAULT_PUBLIC_LINK_BASE, '/launch#x', REFERRER)).toBe(
      `launchpad-companion://app/launch?r=${REFERRER}`,
    );
  });

  it('refuses a path that is not a page of the app', () => {
    for (const path of ['', 'launch', '//evil.example/x', '/admin', 'https://evil.example/launch']) {
      expect(() => referralLink('https://pad.example', path, REFERRER), path).toThrow(
        expect.objectContaining({ code: 'INVALID_PATH' }),
      );
    }
  });
});

describe('publicLinkBaseProblem', () => {
  it('takes an https site or the app scheme, never loopback, plain http, a query or a fragment', () => {
    expect(publicLinkBaseProblem('https://pad.example')).toBeNull();
    expect(publicLinkBaseProblem('https://pad.example/app')).toBeNull();
    expect(publicLinkBaseProblem(DEFAULT_PUBLIC_LINK_BASE)).toBeNull();
    for (const bad of [
      'http://pad.example',
      'https://127.0.0.1:8787',
      'https://localhost',
      'https://[::1]/',
      'https://pad.example/?a=1',
      'https://pad.example/#x',
      'pad.example',
      'javascript:alert(1)',
    ]) {
      expect(publicLinkBaseProblem(bad), bad).not.toBeNull();
    }
  });
});

describe('appPathOfLink', () => {
  it('opens the page a link of the app scheme names, and nothing else the system may hand the app', () => {
    const token = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
    const shared = referralLink(DEFAULT_PUBLIC_LINK_BASE, `/token/${token}`, REFERRER);
    expect(appPathOfLink(shared)).toBe(`/token/${token}?r=${REFERRER}`);
    expect(appPathOfLink('launchpad-companion://app/launch')).toBe('/launch');
    for (const other of [
      'launchpad-companion://app/admin',
      'launchpad-companion://elsewhere/launch',
      'launchpad-companion://user:pw@app/launch',
      'https://pad.example/launch',
      'not a link',
    ]) {
      expect(appPathOfLink(other), other).toBeNull();
    }
  });
});
