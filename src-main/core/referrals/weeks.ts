/**
 * Weeks of the lifetime referral share: week 0 starts Monday 2026-01-05 00:00 UTC, and each lasts 7 days. A trade
 * belongs to the week of its block's time.
 */
export const WEEK_EPOCH_SECONDS = 1_767_571_200;
export const WEEK_SECONDS = 7 * 24 * 60 * 60;

/** The week of a Unix time in seconds. */
export function weekOf(seconds: number): number {
  return Math.floor((seconds - WEEK_EPOCH_SECONDS) / WEEK_SECONDS);
}

/** The first second of a week. */
export function weekStart(week: number): number {
  return WEEK_EPOCH_SECONDS + week * WEEK_SECONDS;
}

/** The most a referrer's lifetime share pays in one week by default; the excess waits as backlog for later weeks. */
export const LIFETIME_WEEKLY_CAP_WEI = 10n * 10n ** 18n;
