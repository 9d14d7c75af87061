import { Check, Copy } from 'lucide-react';
import { useState } from 'react';
import { shortAddress } from '../format';

/**
 * A transaction hash, shortened, with the whole of it on hover and a button that copies it. Where the browser refuses
 * the clipboard, the hash is selected in a field to copy by hand.
 */
export function HashChip({ hash, testId }: { hash: string; testId?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'manual'>('idle');

  async function copy() {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard here');
      await navigator.clipboard.writeText(hash);
      setState('copied');
      setTimeout(() => setState('idle'), 1500);
    } catch {
      setState('manual');
    }
  }

  if (state === 'manual') {
    return (
      <input
        readOnly
        value={hash}
        aria-label="Transaction hash to copy"
        className="w-full max-w-[24rem] font-mono text-xs"
        // biome-ignore lint/a11y/noAutofocus: the person just asked to copy it; it is selected for them.
        autoFocus
        onFocus={(event) => event.target.select()}
        onBlur={() => setState('idle')}
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
        aria-label={state === 'copied' ? 'Copied' : 'Copy the transaction hash'}
        title={state === 'copied' ? 'Copied' : 'Copy'}
        className="inline-flex size-6 cursor-pointer items-center justify-center rounded-md text-muted hover:bg-raised hover:text-fg"
      >
        {state === 'copied' ? <Check size={13} aria-hidden="true" /> : <Copy size={13} aria-hidden="true" />}
      </button>
    </span>
  );
}
