/**
 * Which range an IP address is in, for deciding whether a link may be fetched from it. Only global unicast
 * addresses are `public`; everything a fetch could use to reach this machine, its network, a cloud's metadata
 * service or a translation of those is named, so it can be refused.
 */
export type AddressRange =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'shared'
  | 'unspecified'
  | 'multicast'
  | 'reserved'
  | 'invalid';

/** A CIDR block of IPv4 as [first octets..., prefix length] and the range it belongs to. */
const V4_BLOCKS: readonly (readonly [number, number, AddressRange])[] = [
  [v4(0, 0, 0, 0), 8, 'unspecified'], // "this network"
  [v4(10, 0, 0, 0), 8, 'private'],
  [v4(100, 64, 0, 0), 10, 'shared'], // carrier-grade NAT; Alibaba's metadata service is 100.100.100.200
  [v4(127, 0, 0, 0), 8, 'loopback'],
  [v4(169, 254, 0, 0), 16, 'link-local'], // the usual cloud metadata service is 169.254.169.254
  [v4(172, 16, 0, 0), 12, 'private'],
  [v4(192, 0, 0, 0), 24, 'reserved'], // IETF protocol assignments
  [v4(192, 0, 2, 0), 24, 'reserved'], // documentation
  [v4(192, 88, 99, 0), 24, 'reserved'], // 6to4 relay anycast
  [v4(192, 168, 0, 0), 16, 'private'],
  [v4(198, 18, 0, 0), 15, 'reserved'], // benchmarking
  [v4(198, 51, 100, 0), 24, 'reserved'],
  [v4(203, 0, 113, 0), 24, 'reserved'],
  [v4(224, 0, 0, 0), 4, 'multicast'],
  [v4(240, 0, 0, 0), 4, 'reserved'], // includes 255.255.255.255
];

function v4(a: number, b: number, c: number, d: number): number {
  return ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
}

/**
 * The range of an IPv4 or IPv6 address in text form (as DNS answers or a URL's host give it; IPv6 with or without
 * brackets). IPv6 forms that carry an IPv4 address (v4-mapped, v4-compatible, NAT64, 6to4) take the range of the
 * IPv4 address inside, so `::ffff:127.0.0.1` is loopback. Anything that does not parse is `invalid`.
 *
 * @example addressRange('169.254.169.254') // 'link-local'
 * @example addressRange('[::ffff:7f00:1]') // 'loopback'
 * @example addressRange('2606:4700::1111') // 'public'
 */
export function addressRange(text: string): AddressRange {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const four = parseV4(bare);
  if (four !== null) return v4Range(four);
  const six = parseV6(bare);
  return six === null ? 'invalid' : v6Range(six);
}

/** True only for addresses a link may be fetched from. */
export function isPublicAddress(text: string): boolean {
  return addressRange(text) === 'public';
}

function v4Range(address: number): AddressRange {
  for (const [base, prefix, range] of V4_BLOCKS) {
    const mask = (0xffffffff << (32 - prefix)) >>> 0;
    if ((address & mask) >>> 0 === base) return range;
  }
  return 'public';
}

function v6Range(bytes: Uint8Array): AddressRange {
  const word = (i: number) => ((bytes[2 * i] ?? 0) << 8) | (bytes[2 * i + 1] ?? 0);
  const embedded = (at: number) => v4(bytes[at] ?? 0, bytes[at + 1] ?? 0, bytes[at + 2] ?? 0, bytes[at + 3] ?? 0);
  const zeroUpTo = (words: number) => [...Array(words).keys()].every((i) => word(i) === 0);
  if (zeroUpTo(8)) return 'unspecified';
  if (zeroUpTo(7) && word(7) === 1) return 'loopback';
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (the deprecated compatible form): the IPv4 address is what is reached.
  if (zeroUpTo(5) && word(5) === 0xffff) return v4Range(embedded(12));
  if (zeroUpTo(6)) return v4Range(embedded(12));
  // NAT64 (64:ff9b::/96 and the local-use 64:ff9b:1::/48) translates to the IPv4 address at the end.
  if (word(0) === 0x64 && word(1) === 0xff9b) return word(2) === 0 ? v4Range(embedded(12)) : 'private';
  // 6to4 (2002::/16) carries the IPv4 address in bits 16 to 48.
  if (word(0) === 0x2002) return v4Range(embedded(2));
  const first = word(0);
  if ((first & 0xfe00) === 0xfc00) return 'private'; // unique local fc00::/7 (AWS's metadata is fd00:ec2::254)
  if ((first & 0xffc0) === 0xfe80) return 'link-local';
  if ((first & 0xffc0) === 0xfec0) return 'private'; // site-local, deprecated but still routed by some networks
  if ((first & 0xff00) === 0xff00) return 'multicast';
  if (first === 0x2001 && word(1) === 0x0db8) return 'reserved'; // documentation
  if (first === 0x2001 && word(1) === 0) return 'reserved'; // Teredo: a tunnel to an IPv4 address it hides
  // Only global unicast 2000::/3 is routed on the internet.
  return (first & 0xe000) === 0x2000 ? 'public' : 'reserved';
}

/** Dotted-quad IPv4 with each part 0 to 255 written in decimal, or null. */
function parseV4(text: string): number | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return null;
    value = value * 256 + Number(part);
  }
  return value >>> 0;
}

/** IPv6 text (with `::`, an IPv4 tail, no zone) as 16 bytes, or null. */
function parseV6(text: string): Uint8Array | null {
  if (!/^[0-9a-fA-F:.]+$/.test(text)) return null; // a zone (%eth0) or anything else is not an address to fetch
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const words = (half: string): number[] | null => {
    if (half === '') return [];
    const out: number[] = [];
    const groups = half.split(':');
    for (const [i, group] of groups.entries()) {
      if (i === groups.length - 1 && group.includes('.')) {
        const tail = parseV4(group);
        if (tail === null) return null;
        out.push(tail >>> 16, tail & 0xffff);
      } else if (/^[0-9a-fA-F]{1,4}$/.test(group)) {
        out.push(Number.parseInt(group, 16));
      } else {
        return null;
      }
    }
    return out;
  };
  const head = words(halves[0] ?? '');
  const tail = halves.length === 2 ? words(halves[1] ?? '') : [];
  if (head === null || tail === null) return null;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const all = [...head, ...Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail];
  const bytes = new Uint8Array(16);
  all.forEach((value, i) => {
    bytes[2 * i] = value >> 8;
    bytes[2 * i + 1] = value & 0xff;
  });
  return bytes;
}

/**
 * Whether a URL's host names this machine by itself: localhost (and its subdomains), an address of 127/8 or [::1].
 * Names are checked again where a fetch connects, against what they resolve to; this is the check of the text.
 *
 * @example isLoopbackName('api.localhost') // true
 */
export function isLoopbackName(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
  );
}

/**
 * Whether a URL's host is an IP address (IPv6 in brackets) that is not a public one. A name is not an address:
 * false, whatever it resolves to.
 *
 * @example isNonPublicAddress('[fd00:ec2::254]') // true
 */
export function isNonPublicAddress(hostname: string): boolean {
  const range = addressRange(hostname);
  return range !== 'invalid' && range !== 'public';
}
