/** Class names joined, the falsy ones left out: `cn('a', busy && 'b')`. */
export function cn(...names: (string | false | null | undefined)[]): string {
  return names.filter(Boolean).join(' ');
}
