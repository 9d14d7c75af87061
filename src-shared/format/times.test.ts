import { describe, expect, it } from 'vitest';
import { formatAge, formatLocalTime } from './times';

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
