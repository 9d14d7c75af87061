import { describe, expect, it } from 'vitest';
import { DEFAULT_PUBLIC_LINK_BASE, isShareableLink } from './publicLinkBase';

describe('isShareableLink', () => {
  it('takes an https:// link on a public host', () => {
    expect(isShareableLink('https://pad.example/token/0x5FbDB2315678afecb367f032d93F642f64180aa3?r=0x70')).toBe(true);
    expect(isShareableLink('https://pad.example/app/launch')).toBe(true);
  });

  it('never offers the app scheme, a loopback address, plain http or something that is no link', () => {
    for (const link of [
      `${DEFAULT_PUBLIC_LINK_BASE}/launch?r=0x70`,
      'http://127.0.0.1:8787/token/0x5FbD',
      'https://127.0.0.1/token/0x5FbD',
      'https://localhost/token/0x5FbD',
      'https://[::1]/token/0x5FbD',
      'https://0.0.0.0/',
      'http://pad.example/token/0x5FbD',
      'https://user:pass@pad.example/',
      'javascript:alert(1)',
      'not a link',
      '',
    ]) {
      expect(isShareableLink(link), link).toBe(false);
    }
  });
});
