/**
 * `within(work, what)` for one benchmark: `work`, or an error naming the benchmark and what never finished, after
 * `defaultMs` (or the call's own time). A benchmark must end, with its figures or with why not.
 */
export function deadlineFor(bench: string, defaultMs: number) {
  return async function within<T>(work: Promise<T>, what: string, timeoutMs = defaultMs): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`${bench}: ${what} did not finish within ${timeoutMs / 1000} s`)),
        timeoutMs,
      );
    });
    try {
      return await Promise.race([work, late]);
    } finally {
      clearTimeout(timer);
    }
  };
}
