/**
 * Times as a person reads them: the local date and time (never an ISO string on screen), and how long ago.
 */
import { readerLocale, usableLocale } from './locale';

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

/**
 * A span of seconds in the largest unit that keeps it readable.
 *
 * @example formatDuration(2_592_000) // '30 days'
 */
export function formatDuration(seconds: number): string {
  const unit = (n: number, name: string) => `${n} ${name}${n === 1 ? '' : 's'}`;
  if (seconds < 90) return unit(seconds, 'second');
  if (seconds < 90 * 60) return unit(Math.round(seconds / 60), 'minute');
  if (seconds < 48 * 3600) return unit(Math.round(seconds / 3600), 'hour');
  return unit(Math.round(seconds / 86_400), 'day');
}

/** Within this many seconds of now a moment is said with its time of day; further off, its day is enough. */
const TIME_OF_DAY_WITHIN_SECONDS = 48 * 3600;

/**
 * A deadline or an expiry at signing time, as a person says it: how far off it is, then its day in the reader's
 * locale and zone, with the time of day when it is within two days. `expired` words a moment passed as one.
 *
 * @example formatFromNow(Date.parse('2026-12-28T12:00Z'), Date.parse('2026-11-28T12:00Z'), { locale: 'en-GB', timeZone: 'UTC' }) // 'in 30 days, 28 Dec 2026'
 * @example formatFromNow(Date.parse('2026-11-28T12:20Z'), Date.parse('2026-11-28T12:00Z'), { locale: 'en-GB', timeZone: 'UTC' }) // 'in 20 minutes, 28 Nov 2026, 12:20'
 */
export function formatFromNow(
  at: number,
  now: number,
  options: { locale?: string; timeZone?: string; expired?: boolean } = {},
): string {
  if (!Number.isFinite(at) || !Number.isFinite(new Date(at).getTime())) return 'beyond any date';
  const delta = Math.round((at - now) / 1000);
  // A tag the engine refuses (en-US@posix, as a C locale reports itself) falls back, as the reader's own does.
  const day = new Intl.DateTimeFormat(options.locale ? usableLocale([options.locale]) : readerLocale(), {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    ...(Math.abs(delta) < TIME_OF_DAY_WITHIN_SECONDS ? { hour: '2-digit', minute: '2-digit' } : {}),
    ...(options.timeZone ? { timeZone: options.timeZone } : {}),
  } as const).format(at);
  const passed = options.expired ? 'expired ' : '';
  if (delta > 0) return `in ${formatDuration(delta)}, ${day}`;
  if (delta === 0) return `${passed || 'due '}now, ${day}`;
  return `${passed}${formatDuration(-delta)} ago, ${day}`;
}
