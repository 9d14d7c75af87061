import { isIP } from 'node:net';
import { describe, expect, it } from 'vitest';
import { type AddressRange, addressRange, isLoopbackName, isNonPublicAddress } from './addressRange';

describe('addressRange', () => {
  it('names every range a link could use to reach this machine, its network or a metadata service', () => {
    const cases: [string, AddressRange][] = [
      ['127.0.0.1', 'loopback'],
      ['127.255.0.9', 'loopback'],
      ['0.0.0.0', 'unspecified'],
      ['10.1.2.3', 'private'],
      ['172.16.0.1', 'private'],
      ['172.31.255.255', 'private'],
      ['192.168.1.1', 'private'],
      ['169.254.169.254', 'link-local'],
      ['100.64.0.1', 'shared'],
      ['100.100.100.200', 'shared'],
      ['100.127.255.255', 'shared'],
      ['224.0.0.1', 'multicast'],
      ['255.255.255.255', 'reserved'],
      ['198.18.0.1', 'reserved'],
      ['::1', 'loopback'],
      ['[::1]', 'loopback'],
      ['0:0:0:0:0:0:0:1', 'loopback'],
      ['::', 'unspecified'],
      ['::ffff:127.0.0.1', 'loopback'],
      ['[::ffff:7f00:1]', 'loopback'],
      ['::ffff:a9fe:a9fe', 'link-local'],
      ['::ffff:10.0.0.1', 'private'],
      ['::127.0.0.1', 'loopback'],
      ['64:ff9b::7f00:1', 'loopback'],
      ['64:ff9b::a9fe:a9fe', 'link-local'],
      ['2002:7f00:1::', 'loopback'],
      ['2002:c0a8:101::1', 'private'],
      ['fd00:ec2::254', 'private'],
      ['fc00::1', 'private'],
      ['fe80::1', 'link-local'],
      ['fec0::1', 'private'],
      ['ff02::1', 'multicast'],
      ['2001:db8::1', 'reserved'],
      ['2001:0:4136:e378::1', 'reserved'],
      ['100::1', 'reserved'],
      ['fe80::1%eth0', 'invalid'],
      ['localhost', 'invalid'],
      ['1.2.3', 'invalid'],
      ['256.1.1.1', 'invalid'],
      ['1:2:3:4:5:6:7:8:9', 'invalid'],
      ['1::2::3', 'invalid'],
      ['', 'invalid'],
    ];
    for (const [address, range] of cases) expect(addressRange(address), address).toBe(range);
  });

  it('calls only global unicast addresses public', () => {
    for (const address of ['8.8.8.8', '1.1.1.1', '100.63.255.255', '100.128.0.0', '172.32.0.1', '11.0.0.1']) {
      expect(addressRange(address), address).toBe('public');
    }
    for (const address of ['2606:4700:4700::1111', '[2a00:1450:4001:82b::200e]', '::ffff:8.8.8.8', '2002:808:808::']) {
      expect(addressRange(address), address).toBe('public');
    }
  });
});

describe('host names of links', () => {
  it('knows the names of this machine by their text', () => {
    for (const host of ['localhost', 'LOCALHOST', 'api.localhost', '127.0.0.1', '127.1.2.3', '[::1]']) {
      expect(isLoopbackName(host), host).toBe(true);
    }
    for (const host of ['localhost.example', 'mylocalhost', '128.0.0.1', '[::2]', 'example.com']) {
      expect(isLoopbackName(host), host).toBe(false);
    }
  });

  it('calls an address in a URL non-public exactly when it is an IP address outside the public range', () => {
    const links = [
      'https://10.0.0.1/',
      'https://0x7f.1/',
      'https://[fd00:ec2::254]/',
      'https://[::ffff:a9fe:a9fe]/',
      'https://8.8.8.8/',
      'https://[2606:4700::1111]/',
      'https://example.com/',
      'https://1.2.3.4./',
      'https://127.1/',
    ];
    for (const link of links) {
      const { hostname } = new URL(link);
      const literal = hostname.replace(/^\[|\]$/g, '');
      // What the server checked with node:net before this moved to shared code: the same answer for every URL host.
      expect(isNonPublicAddress(hostname), link).toBe(isIP(literal) !== 0 && addressRange(literal) !== 'public');
    }
    expect(isNonPublicAddress('example.com')).toBe(false);
    expect(isNonPublicAddress('[fd00::1]')).toBe(true);
  });
});
