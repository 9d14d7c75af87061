import { Check, Copy } from 'lucide-react';
import { cn } from '../ui/cn';
import { useClipboard } from '../ui/useClipboard';

/**
 * A small button that copies `text` (an address, a hash, a link), with a check for a moment once copied. Where the
 * browser refuses the clipboard, it says so in its title and the text stays selectable beside it.
 */
export function CopyIcon({
  text,
  label,
  testId,
  className,
}: {
  text: string;
  /** What is copied, for the button's name: "Copy contract address". */
  label: string;
  testId?: string;
  className?: string;
}) {
  const { state, copy: copyText } = useClipboard(1500);
  const copy = () => copyText(text);
  return (
    <button
      type="button"
      aria-label={label}
      title={state === 'refused' ? 'The browser did not allow copying: select the text and press Ctrl+C' : label}
      data-testid={testId}
      data-copy-state={state}
      onClick={() => void copy()}
      className={cn(
        'inline-flex size-6 shrink-0 cursor-pointer items-center justify-center rounded-md text-muted hover:bg-raised hover:text-fg',
        className,
      )}
    >
      {state === 'copied' ? (
        <Check size={14} aria-hidden="true" className="text-up" />
      ) : (
        <Copy size={14} aria-hidden="true" />
      )}
    </button>
  );
}
