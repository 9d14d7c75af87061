import { Check, Copy } from 'lucide-react';
import { shortAddress } from '../format';
import { useClipboard } from '../ui/useClipboard';

/**
 * A transaction hash (or an address: `noun` says which), shortened, with the whole of it on hover and a button that
 * copies it. Where the browser refuses the clipboard, the hash is selected in a field to copy by hand.
 */
export function HashChip({
  hash,
  testId,
  noun = 'transaction hash',
}: {
  hash: string;
  testId?: string;
  noun?: 'transaction hash' | 'address';
}) {
  const { state, copy: copyText, reset } = useClipboard(1500);
  const copy = () => copyText(hash);

  if (state === 'refused') {
    return (
      <input
        readOnly
        value={hash}
        aria-label={`The ${noun} to copy`}
        className="w-full max-w-[24rem] font-mono text-xs"
        // biome-ignore lint/a11y/noAutofocus: the person just asked to copy it; it is selected for them.
        autoFocus
        onFocus={(event) => event.target.select()}
        onBlur={reset}
      />
    );
  }
  return (
    <span className="inline-flex items-center gap-1">
      <code title={hash} data-testid={testId} data-hash={hash} className="font-mono text-xs">
        {shortAddress(hash)}
      </code>
      <button
        type="button"
        onClick={() => void copy()}
        aria-label={state === 'copied' ? 'Copied' : `Copy the ${noun}`}
        title={state === 'copied' ? 'Copied' : 'Copy'}
        className="inline-flex size-6 cursor-pointer items-center justify-center rounded-md text-muted hover:bg-raised hover:text-fg"
      >
        {state === 'copied' ? <Check size={13} aria-hidden="true" /> : <Copy size={13} aria-hidden="true" />}
      </button>
    </span>
  );
}
