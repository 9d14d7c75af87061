import { useEffect, useRef, useState } from 'react';

export type CopyState = 'idle' | 'copied' | 'refused';

/**
 * Copies text to the clipboard and says how it went: 'copied' (back to 'idle' after `resetMs`, when given) or
 * 'refused' where the browser has no clipboard or denies it (headless, no permission), for the caller to offer the
 * text to copy by hand.
 */
export function useClipboard(resetMs?: number): {
  state: CopyState;
  copy(text: string): Promise<void>;
  /** Back to 'idle' (the text offered by hand was dismissed). */
  reset(): void;
} {
  const [state, setState] = useState<CopyState>('idle');
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  async function copy(text: string): Promise<void> {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard here');
      await navigator.clipboard.writeText(text);
      setState('copied');
      if (resetMs !== undefined) {
        clearTimeout(timer.current);
        timer.current = setTimeout(() => setState('idle'), resetMs);
      }
    } catch {
      setState('refused');
    }
  }
  return { state, copy, reset: () => setState('idle') };
}
