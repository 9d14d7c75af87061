import { describe, expect, it } from 'vitest';
import { declaredImageType, mediaTypeOf, sniffImage } from './sniffImage';

const bytes = (...values: (number | string)[]) =>
  Uint8Array.from(
    values.flatMap((value) => (typeof value === 'string' ? [...value].map((c) => c.charCodeAt(0)) : [value])),
  );

describe('sniffImage', () => {
  it('knows PNG, JPEG, GIF and WebP by their first bytes', () => {
    expect(sniffImage(bytes(0x89, 'PNG', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13))).toEqual({
      type: 'png',
      mime: 'image/png',
    });
    expect(sniffImage(bytes(0xff, 0xd8, 0xff, 0xe0))).toEqual({ type: 'jpeg', mime: 'image/jpeg' });
    expect(sniffImage(bytes(0xff, 0xd8, 0xff, 0xe1))).toEqual({ type: 'jpeg', mime: 'image/jpeg' });
    expect(sniffImage(bytes('GIF87a', 1, 0))).toEqual({ type: 'gif', mime: 'image/gif' });
    expect(sniffImage(bytes('GIF89a', 1, 0))).toEqual({ type: 'gif', mime: 'image/gif' });
    expect(sniffImage(bytes('RIFF', 0x1a, 0, 0, 0, 'WEBPVP8L'))).toEqual({ type: 'webp', mime: 'image/webp' });
  });

  it('answers null for anything else, however it starts', () => {
    for (const other of [
      bytes(),
      bytes(0x89, 'PNG'), // a truncated signature
      bytes(0xff, 0xd8),
      bytes('GIF88a'),
      bytes('RIFF', 0, 0, 0, 0, 'WAVE'), // RIFF, but audio
      bytes('RIFF', 0, 0, 0, 0, 'WEB'),
      bytes('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      bytes('{"image":"x"}'),
      bytes(0, 0, 0, 0x1c, 'ftypavif'), // AVIF
      bytes('BM'), // BMP
      bytes('hello'),
    ]) {
      expect(sniffImage(other)).toBeNull();
    }
  });
});

describe('declaredImageType', () => {
  it('maps Content-Types to our types, ignoring case and parameters', () => {
    expect(declaredImageType('image/png')).toBe('png');
    expect(declaredImageType('Image/PNG; charset=binary')).toBe('png');
    expect(declaredImageType('image/jpeg')).toBe('jpeg');
    expect(declaredImageType('image/jpg')).toBe('jpeg');
    expect(declaredImageType('image/gif')).toBe('gif');
    expect(declaredImageType('image/webp')).toBe('webp');
  });

  it('tells image types we do not take from things that are not images', () => {
    expect(declaredImageType('image/svg+xml')).toBe('other-image');
    expect(declaredImageType('image/avif')).toBe('other-image');
    expect(declaredImageType('application/json')).toBeNull();
    expect(declaredImageType('multipart/form-data; boundary=x')).toBeNull();
    expect(declaredImageType('text/plain')).toBeNull();
    expect(declaredImageType('')).toBeNull();
  });

  it('reduces a Content-Type to its media type', () => {
    expect(mediaTypeOf(' Application/JSON ; charset=utf-8')).toBe('application/json');
  });
});
