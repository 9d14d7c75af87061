/**
 * Times as a person reads them: the local date and time (never an ISO string on screen), and how long ago.
 */
import { readerLocale } from './locale';

/**
 * A moment in the reader's own time zone and locale, to the minute.
 *
 * @example formatLocalTime(Date.parse('2026-11-25T06:34:30Z'), 'en-GB', 'UTC') // '25 Nov 2026, 06:34'
 */
export function formatLocalTime(at: number | string, locale?: string, timeZone?: string): string {
  const time = typeof at === 'number' ? at : Date.parse(at);
  if (!Number.isFinite(time)) return '—';
  return new Intl.DateTimeFormat(locale ?? readerLocale(), {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    ...(timeZone ? { timeZone } : {}),
  }).format(time);
}

/**
 * A day as a person says it, with the year only when it is not this one.
 *
 * @example formatShortDate(Date.parse('2026-12-25T12:00Z'), Date.parse('2026-11-25T12:00Z')) // '25 Dec' (in en-GB)
 */
export function formatShortDate(at: number, now: number = Date.now()): string {
  const date = new Date(at);
  if (!Number.isFinite(date.getTime())) return '—';
  const sameYear = date.getFullYear() === new Date(now).getFullYear();
  return new Intl.DateTimeFormat(readerLocale(), {
    day: 'numeric',
    month: 'short',
    ...(sameYear ? {} : { year: 'numeric' }),
  }).format(date);
}

/**
 * How long ago, in the largest unit that keeps it short; a moment in the future (a clock ahead) reads "just now".
 *
 * @example formatAge(Date.now() - 90_000) // '1 min ago'
 */
export function formatAge(at: number | string, now: number = Date.now()): string {
  const time = typeof at === 'number' ? at : Date.parse(at);
  if (!Number.isFinite(time)) return '—';
  const seconds = Math.floor((now - time) / 1000);
  if (seconds < 5) return 'just now';
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  if (seconds < 30 * 86_400) return `${Math.floor(seconds / 86_400)} d ago`;
  if (seconds < 365 * 86_400) return `${Math.floor(seconds / (30 * 86_400))} mo ago`;
  return `${Math.floor(seconds / (365 * 86_400))} y ago`;
}
