import { Check, Copy } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Button } from '../ui/Button';
import { useClipboard } from '../ui/useClipboard';

/**
 * Copies `text` to the clipboard. Where the browser refuses (headless, or no permission), it shows the text in a
 * field, selected, so the person can copy it by hand instead of being told nothing happened. Put it in a wrapping flex
 * row: that field takes a line of its own.
 */
export function CopyButton({ text, testId, label = 'Copy' }: { text: string; testId: string; label?: string }) {
  const { state, copy: copyText } = useClipboard();
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (state !== 'refused') return;
    field.current?.focus();
    field.current?.select();
  }, [state]);

  const copy = () => copyText(text);

  return (
    <>
      <Button
        size="sm"
        testId={testId}
        // 'manual': the text is offered to copy by hand.
        data-copy-state={state === 'refused' ? 'manual' : state}
        onClick={() => void copy()}
        icon={state === 'copied' ? <Check size={14} aria-hidden="true" /> : <Copy size={14} aria-hidden="true" />}
      >
        {state === 'copied' ? 'Copied' : label}
      </Button>
      {state === 'refused' && (
        // A line of its own under the button's row (the button sits in a wrapping flex row wherever it is used).
        <span className="flex basis-full flex-col gap-1">
          <input
            ref={field}
            readOnly
            value={text}
            aria-label="Text to copy"
            data-testid={`${testId}-text`}
            className="w-full font-mono text-xs"
            onFocus={(event) => event.currentTarget.select()}
          />
          <span className="text-xs text-muted">
            The browser did not allow copying: the text is selected, press Ctrl+C (⌘C).
          </span>
        </span>
      )}
    </>
  );
}
