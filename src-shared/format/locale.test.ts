import { describe, expect, it } from 'vitest';
import { FALLBACK_LOCALE, readerLocale, usableLocale } from './locale';

describe('usableLocale', () => {
  it('reads a POSIX name as the tag it stands for, and falls back where Intl refuses every one', () => {
    // What Chromium reports for LANG=C.UTF-8: Intl itself refuses it.
    expect(() => new Intl.NumberFormat('en-US@posix')).toThrow(RangeError);
    expect(usableLocale(['en-US@posix'])).toBe('en-US');
    expect(usableLocale(['de_DE.UTF-8'])).toBe('de-DE');
    expect(usableLocale(['C', undefined, ''])).toBe(FALLBACK_LOCALE);
    expect(usableLocale(['@@', 'fr-FR'])).toBe('fr-FR');
    expect(usableLocale([])).toBe(FALLBACK_LOCALE);
  });

  it('gives the reader a locale every Intl formatter takes', () => {
    const locale = readerLocale();
    expect(() => new Intl.NumberFormat(locale).format(1234.5)).not.toThrow();
    expect(() => new Intl.DateTimeFormat(locale).format(0)).not.toThrow();
  });
});
