import { useEffect, useRef, useState } from 'react';

/**
 * Copies `text` to the clipboard. Where the browser refuses (headless, or no permission), it shows the text in a
 * field, selected, so the person can copy it by hand instead of being told nothing happened.
 */
export function CopyButton({ text, testId, label = 'Copy' }: { text: string; testId: string; label?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'manual'>('idle');
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (state !== 'manual') return;
    field.current?.focus();
    field.current?.select();
  }, [state]);

  async function copy() {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard here');
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('manual');
    }
  }

  return (
    <span className="acct-copy">
      <button type="button" data-testid={testId} data-copy-state={state} onClick={() => void copy()}>
        {state === 'copied' ? 'Copied' : label}
      </button>
      {state === 'manual' && (
        <>
          {' '}
          <input
            ref={field}
            readOnly
            value={text}
            aria-label="Text to copy"
            data-testid={`${testId}-text`}
            className="acct-copy-text"
            onFocus={(event) => event.currentTarget.select()}
          />{' '}
          <span className="muted">The browser did not allow copying: the text is selected, press Ctrl+C (⌘C).</span>
        </>
      )}
    </span>
  );
}
