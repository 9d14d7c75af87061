import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { findRawCids, isRawCid, looksLikeCid, rawCid } from './cid';

const text = (value: string) => new TextEncoder().encode(value);

describe('rawCid', () => {
  it('matches the CIDs IPFS gives raw blocks (ipfs add --cid-version 1 --raw-leaves)', () => {
    expect(rawCid(new Uint8Array())).toBe('bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku');
    expect(rawCid(text('hello world'))).toBe('bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e');
  });

  it('is the base32 of 0x01 0x55 0x12 0x20 followed by the sha2-256 digest', () => {
    const bytes = text('any bytes at all');
    const digest = createHash('sha256').update(bytes).digest();
    const binary = Buffer.concat([Buffer.from([0x01, 0x55, 0x12, 0x20]), digest]);
    // Reference base32 written bit by bit, independent of the implementation's buffering.
    const bits = [...binary].map((byte) => byte.toString(2).padStart(8, '0')).join('');
    const padded = bits.padEnd(Math.ceil(bits.length / 5) * 5, '0');
    const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
    const expected = `b${padded
      .match(/.{5}/g)
      ?.map((group) => alphabet[Number.parseInt(group, 2)])
      .join('')}`;
    expect(rawCid(bytes)).toBe(expected);
    expect(expected).toHaveLength(59);
    expect(expected.startsWith('bafkrei')).toBe(true);
  });

  it('gives the same CID for the same bytes and another for other bytes', () => {
    expect(rawCid(text('a'))).toBe(rawCid(Uint8Array.from([0x61])));
    expect(rawCid(text('a'))).not.toBe(rawCid(text('b')));
  });
});

describe('isRawCid', () => {
  it('accepts the CIDs rawCid makes', () => {
    for (const value of ['', 'x', 'hello world', 'z'.repeat(1000)]) expect(isRawCid(rawCid(text(value)))).toBe(true);
  });

  it('refuses other CIDs, near misses and anything that could be a path', () => {
    const good = rawCid(text('hello world'));
    for (const bad of [
      '',
      good.toUpperCase(),
      good.slice(0, -1),
      `${good}a`,
      `${good.slice(0, -1)}f`, // the last character carries two padding bits that must be zero
      // a dag-pb CIDv1 (bafy…) and a CIDv0 are CIDs, but not raw sha2-256 ones
      'bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi',
      'QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG',
      '../../../../etc/passwd',
      `${good}/../x`,
      `b${'a'.repeat(58)}`,
    ]) {
      expect(isRawCid(bad), bad).toBe(false);
    }
  });
});

describe('looksLikeCid', () => {
  it('tells CID-shaped text from other text', () => {
    expect(looksLikeCid('QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG')).toBe(true);
    expect(looksLikeCid('bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi')).toBe(true);
    expect(looksLikeCid('logo.png')).toBe(false);
  });
});

describe('findRawCids', () => {
  it('finds each raw CID once, in links and paths, and nothing that only looks like one', () => {
    const a = rawCid(text('a'));
    const b = rawCid(text('b'));
    const found = findRawCids(
      `{"image":"ipfs://${a}","url":"http://127.0.0.1:8787/media/${b}","again":"${a.toUpperCase()}","short":"bafkrei${'a'.repeat(51)}"}`,
    );
    expect(found).toEqual([a, b]);
    expect(findRawCids('no cid here')).toEqual([]);
  });
});
