import { describe, expect, it } from 'vitest';
import {
  MAX_DESCRIPTION_CHARS,
  metadataDocumentSchema,
  metadataIssue,
  tokenDetailsSchema,
  tokenMetadataSchema,
} from './metadata';

const IMAGE = 'ipfs://bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku';

/** The issue the API would answer for `input`, or the parsed value. */
function detailsOutcome(input: unknown) {
  const parsed = tokenDetailsSchema.safeParse(input);
  return parsed.success ? parsed.data : metadataIssue(parsed.error);
}

function metadataOutcome(input: unknown, imageLinkProblem?: Parameters<typeof tokenMetadataSchema>[0]) {
  const parsed = tokenMetadataSchema(imageLinkProblem).safeParse(input);
  return parsed.success ? parsed.data : metadataIssue(parsed.error);
}

describe('tokenDetailsSchema', () => {
  it('turns handles into links, trims, and takes absent, null or blank as not given', () => {
    expect(detailsOutcome({ x: '@moon', telegram: ' moon_chat ', website: ' https://moon.example ' })).toMatchObject({
      x: 'https://x.com/moon',
      telegram: 'https://t.me/moon_chat',
      website: 'https://moon.example',
    });
    const blank = detailsOutcome({ description: null, website: '', x: undefined, telegram: '   ' });
    expect(Object.values(blank).filter((value) => value !== undefined)).toEqual([]);
  });

  it.each([
    [{ description: 7 }, 'description', 'description must be a string, not number', undefined],
    [
      { description: 'é'.repeat(MAX_DESCRIPTION_CHARS + 1) },
      'description',
      'description is over 1000 characters',
      undefined,
    ],
    [{ description: 'bell\u0007' }, 'description', 'description contains control characters', undefined],
    [{ website: 'http://moon.example' }, 'website', 'website is not an https:// link', 'https://example.com'],
    [{ website: 'https://10.1.2.3/' }, 'website', 'website does not point at a public site', 'https://example.com'],
    [{ website: 'https://[fd00:ec2::254]/' }, 'website', 'website does not point at a public site', 'https://'],
    [{ website: 'https://a:b@moon.example' }, 'website', 'website carries a user name or password', 'https://'],
    [{ x: 'https://evil.example/moon' }, 'x', 'x is not on x.com', '@name'],
    [{ x: 'https://x.com/' }, 'x', 'x names no account or group', '@name'],
    [{ telegram: 'tg://moon' }, 'telegram', 'telegram is not an https:// link', 'Telegram username'],
  ])('refuses %j with the field, message and fix the API answers', (input, field, message, fix) => {
    const issue = detailsOutcome(input);
    expect(issue).toMatchObject({ code: 'INVALID_METADATA', field, message });
    if (fix === undefined) expect(issue).not.toHaveProperty('fix');
    else expect((issue as { fix: string }).fix).toContain(fix);
  });

  it('checks one detail alone, as the indexer reads metadata written elsewhere', () => {
    expect(tokenDetailsSchema.shape.x.safeParse('@owl')).toMatchObject({ success: true, data: 'https://x.com/owl' });
    expect(tokenDetailsSchema.shape.website.safeParse('javascript:alert(1)').success).toBe(false);
  });
});

describe('tokenMetadataSchema', () => {
  it('keeps name, symbol and image as sent, with the details checked', () => {
    expect(metadataOutcome({ name: ' Moon ', symbol: 'MOON', image: IMAGE, x: 'moon' })).toMatchObject({
      name: ' Moon ',
      symbol: 'MOON',
      image: IMAGE,
      x: 'https://x.com/moon',
    });
  });

  it('answers MISSING_IMAGE without an image, INVALID_METADATA for the rest', () => {
    expect(metadataOutcome({ name: 'Moon', symbol: 'MOON', image: ' ' })).toEqual({
      code: 'MISSING_IMAGE',
      field: 'image',
      message: 'the token metadata needs an image',
    });
    expect(
      metadataOutcome({ name: 'Moon', symbol: 'MOON', image: `https://a.example/${'a'.repeat(300)}` }),
    ).toMatchObject({
      code: 'INVALID_METADATA',
      field: 'image',
      message: 'image is over 256 characters',
    });
    expect(metadataOutcome({ name: 'n'.repeat(65), symbol: 'MOON', image: IMAGE })).toMatchObject({
      field: 'name',
      message: 'name is over 64 bytes',
    });
    expect(metadataOutcome({ name: 'Moon', symbol: 'é'.repeat(17), image: IMAGE })).toMatchObject({
      field: 'symbol',
      message: 'symbol is over 32 bytes',
    });
  });

  it("asks the caller's rule about the image link, and passes its fix on", () => {
    const refused = metadataOutcome({ name: 'Moon', symbol: 'MOON', image: 'https://127.0.0.1/a.png' }, () => ({
      problem: 'points at this machine (127.0.0.1)',
      fix: 'Upload it first.',
    }));
    expect(refused).toEqual({
      code: 'INVALID_METADATA',
      field: 'image',
      message: 'image points at this machine (127.0.0.1)',
      fix: 'Upload it first.',
    });
  });

  it('reports an unknown key first, then the keys in a fixed order, whatever order they were sent in', () => {
    expect(metadataOutcome({ telegram: 'x', zzz: 1, name: '', image: IMAGE, symbol: 'M' })).toMatchObject({
      field: 'zzz',
      message: 'zzz is not a token detail the service stores',
    });
    expect(
      metadataOutcome({ telegram: 'x', website: 'http://a.example', image: '', symbol: '', name: 'M' }),
    ).toMatchObject({
      field: 'symbol',
    });
    expect(
      metadataOutcome({ telegram: 'x', website: 'http://a.example', image: IMAGE, symbol: 'M', name: 'M' }),
    ).toMatchObject({
      field: 'website',
    });
  });
});

describe('metadataDocumentSchema', () => {
  it('takes any JSON object with a non-empty image, and nothing else', () => {
    expect(metadataDocumentSchema.safeParse({ image: 'a', extra: [1] }).success).toBe(true);
    for (const document of [null, [], 'x', {}, { image: '  ' }, { image: 3 }]) {
      expect(metadataDocumentSchema.safeParse(document).success, JSON.stringify(document)).toBe(false);
    }
  });
});
