import { describe, expect, it } from 'vitest';
import { formatAge, formatFromNow, formatLocalTime } from './times';

describe('formatLocalTime', () => {
  it('writes a date and time in the given locale and zone, never ISO', () => {
    const at = Date.parse('2026-11-25T06:34:30Z');
    expect(formatLocalTime(at, 'en-GB', 'UTC')).toBe('25 Nov 2026, 06:34');
    expect(formatLocalTime('2026-11-25T06:34:30.000Z', 'en-GB', 'Asia/Singapore')).toBe('25 Nov 2026, 14:34');
    expect(formatLocalTime('not a time')).toBe('—');
  });
});

describe('formatAge', () => {
  const now = Date.parse('2026-11-25T12:00:00Z');
  it('says how long ago in the largest short unit', () => {
    expect(formatAge(now - 2_000, now)).toBe('just now');
    expect(formatAge(now + 60_000, now)).toBe('just now');
    expect(formatAge(now - 42_000, now)).toBe('42 s ago');
    expect(formatAge(now - 90_000, now)).toBe('1 min ago');
    expect(formatAge(now - 5 * 3600_000, now)).toBe('5 h ago');
    expect(formatAge(now - 3 * 86_400_000, now)).toBe('3 d ago');
    expect(formatAge(now - 65 * 86_400_000, now)).toBe('2 mo ago');
    expect(formatAge(now - 800 * 86_400_000, now)).toBe('2 y ago');
    expect(formatAge('garbage', now)).toBe('—');
  });
});

describe('formatFromNow', () => {
  const now = Date.parse('2026-11-28T12:00:00Z');
  const gb = { locale: 'en-GB', timeZone: 'UTC' };
  it('says how far off a moment is, then its day, with the time of day only when it is within two days', () => {
    expect(formatFromNow(now + 30 * 86_400_000, now, gb)).toBe('in 30 days, 28 Dec 2026');
    expect(formatFromNow(now + 20 * 60_000, now, gb)).toBe('in 20 minutes, 28 Nov 2026, 12:20');
    expect(formatFromNow(now - 5 * 3600_000, now, gb)).toBe('5 hours ago, 28 Nov 2026, 07:00');
    expect(formatFromNow(now - 5 * 3600_000, now, { ...gb, expired: true })).toBe(
      'expired 5 hours ago, 28 Nov 2026, 07:00',
    );
    expect(formatFromNow(now, now, gb)).toBe('due now, 28 Nov 2026, 12:00');
    expect(formatFromNow(now + 30 * 86_400_000, now, { locale: 'en-US', timeZone: 'UTC' })).toBe(
      'in 30 days, Dec 28, 2026',
    );
  });

  it('writes the day in the fallback locale for a tag the engine refuses, rather than throwing', () => {
    expect(formatFromNow(now + 30 * 86_400_000, now, { locale: 'en-US@posix', timeZone: 'UTC' })).toBe(
      'in 30 days, Dec 28, 2026',
    );
  });

  it('says a moment no calendar holds is beyond any date', () => {
    expect(formatFromNow(9e15, now, gb)).toBe('beyond any date');
    expect(formatFromNow(Number.POSITIVE_INFINITY, now, gb)).toBe('beyond any date');
  });
});
