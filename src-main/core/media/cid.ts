import { createHash } from 'node:crypto';

/**
 * IPFS content identifiers computed locally, so stored media gets the `ipfs://` address it would have on any IPFS node
 * without one being reachable: CIDv1, codec `raw` (the bytes are the file itself, not a UnixFS DAG), multihash
 * sha2-256, written in base32 lower case with its multibase prefix `b`. The same bytes always give the same CID.
 *
 * Layout of the binary CID (every varint here is below 0x80, so one byte each):
 *   0x01 (CID version 1) · 0x55 (raw codec) · 0x12 (sha2-256) · 0x20 (digest length 32) · 32 digest bytes
 * which base32 writes as 59 characters starting "bafkrei".
 */

const CID_HEADER = [0x01, 0x55, 0x12, 0x20] as const;
const CID_BYTES = CID_HEADER.length + 32;
/** RFC 4648 base32 alphabet, lower case, as the multibase `b` prefix requires. */
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
/** 'b' plus ceil(36 · 8 / 5) = 58 characters, no padding. */
const RAW_CID_PATTERN = /^b[a-z2-7]{58}$/;

function base32(bytes: Uint8Array): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = ((buffer << 8) | byte) & 0xfff; // at most 4 + 8 bits are ever pending
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(buffer >> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(buffer << (5 - bits)) & 31];
  return out;
}

function unbase32(text: string): Uint8Array | null {
  const out: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const char of text) {
    const value = BASE32.indexOf(char);
    if (value === -1) return null;
    buffer = ((buffer << 5) | value) & 0xfff;
    bits += 5;
    if (bits >= 8) {
      out.push((buffer >> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  // Leftover bits are padding and must be zero, or two spellings would name the same bytes.
  if ((buffer & ((1 << bits) - 1)) !== 0) return null;
  return Uint8Array.from(out);
}

/**
 * The CIDv1 (raw codec, sha2-256, base32) of `bytes`.
 *
 * @example rawCid(new TextEncoder().encode('hello world'))
 * // 'bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e'
 */
export function rawCid(bytes: Uint8Array): string {
  const digest = createHash('sha256').update(bytes).digest();
  const cid = new Uint8Array(CID_BYTES);
  cid.set(CID_HEADER, 0);
  cid.set(digest, CID_HEADER.length);
  return `b${base32(cid)}`;
}

/**
 * Whether `text` is a CID of the one form this service makes (CIDv1, raw, sha2-256, canonical base32). Anything it
 * accepts is 59 characters of [a-z2-7], so it is also safe as a file name.
 *
 * @example isRawCid('bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku') // true
 */
export function isRawCid(text: string): boolean {
  if (!RAW_CID_PATTERN.test(text)) return false;
  const bytes = unbase32(text.slice(1));
  return bytes !== null && bytes.length === CID_BYTES && CID_HEADER.every((byte, i) => bytes[i] === byte);
}

/**
 * Whether `text` has the shape of some CID (a CIDv0 "Qm…" in base58, or a CIDv1 in base32), without checking it
 * further: enough to tell "a CID this server does not hold" from "not a CID at all" in messages.
 */
export function looksLikeCid(text: string): boolean {
  return /^Qm[1-9A-HJ-NP-Za-km-z]{44}$/.test(text) || /^b[a-z2-7]{20,}$/.test(text);
}

/**
 * Every raw CID written anywhere in a text (a metadata document, a stored request), lower-cased, without repeats.
 *
 * @example findRawCids('{"image":"ipfs://bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku"}')
 * // ['bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku']
 */
export function findRawCids(text: string): string[] {
  const found = new Set<string>();
  for (const [match] of text.toLowerCase().matchAll(/bafkrei[a-z2-7]{52}/g)) {
    if (isRawCid(match)) found.add(match);
  }
  return [...found];
}
