/**
 * The one locale the app formats with. A system can name a locale `Intl` refuses: Chromium reports the C locale of
 * a fresh Debian machine (`LANG=C.UTF-8`) as `en-US@posix`, and `new Intl.NumberFormat('en-US@posix')` throws. Every
 * place that formats for the reader, and every library handed a locale (the price chart), takes it from here.
 */

/** What the app falls back to when nothing the system names is a tag `Intl` accepts. */
export const FALLBACK_LOCALE = 'en-US';

/** `tag` as `Intl` takes it, or undefined when it refuses it. */
function accepted(tag: string): string | undefined {
  try {
    return Intl.DateTimeFormat.supportedLocalesOf([tag])[0] ?? new Intl.NumberFormat(tag).resolvedOptions().locale;
  } catch {
    return undefined;
  }
}

/**
 * The first of `wanted` that `Intl` accepts, a POSIX name (`en_US.UTF-8`, `en-US@posix`) read as the tag it stands
 * for; `FALLBACK_LOCALE` when none is.
 *
 * @example usableLocale(['en-US@posix']) // 'en-US'
 * @example usableLocale(['C', undefined]) // 'en-US'
 */
export function usableLocale(wanted: readonly (string | undefined)[]): string {
  for (const tag of wanted) {
    if (!tag) continue;
    const found = accepted(tag) ?? accepted((tag.split(/[@.]/)[0] ?? '').replaceAll('_', '-'));
    if (found) return found;
  }
  return FALLBACK_LOCALE;
}

let chosen: string | undefined;

/** The reader's locale, as the browser or the system names it, made usable; chosen once. */
export function readerLocale(): string {
  if (chosen === undefined) {
    const nav = typeof navigator === 'undefined' ? undefined : navigator;
    let system: string | undefined;
    try {
      system = new Intl.DateTimeFormat().resolvedOptions().locale;
    } catch {
      system = undefined;
    }
    chosen = usableLocale([...(nav?.languages ?? []), nav?.language, system]);
  }
  return chosen;
}
