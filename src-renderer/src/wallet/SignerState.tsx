import { KeyRound, Lock, Usb, Wallet } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { shortAddress } from '../format';
import { Link } from '../router/Link';
import { Button } from '../ui/Button';
import { cn } from '../ui/cn';
import { activeAddress, useWallet } from './walletStore';

/**
 * Unlocks the local key where a signature is needed: a passphrase field (when the key has one) and a button. Shows
 * main's refusal (a wrong passphrase) under it.
 */
export function UnlockInline({ autoFocus, onUnlocked }: { autoFocus?: boolean; onUnlocked?(): void }) {
  const { status, run, busy, failure } = useWallet();
  const [passphrase, setPassphrase] = useState('');
  const localKey = status?.localKey;
  if (!localKey || localKey.unlocked) return null;
  return (
    <form
      className="flex flex-col gap-2"
      data-testid="unlock-inline"
      onSubmit={(event) => {
        event.preventDefault();
        void run('signer.unlock', localKey.needsPassphrase ? { passphrase } : {}).then((ok) => {
          setPassphrase('');
          if (ok) onUnlocked?.();
        });
      }}
    >
      <p className="text-sm">
        The key <code>{shortAddress(localKey.address)}</code> is locked.
      </p>
      <div className="flex gap-2">
        {localKey.needsPassphrase && (
          <input
            type="password"
            aria-label="Passphrase of the local key"
            placeholder="Passphrase"
            autoComplete="current-password"
            // biome-ignore lint/a11y/noAutofocus: the person just asked to unlock; the field is what they type into next.
            autoFocus={autoFocus}
            data-testid="unlock-inline-passphrase"
            value={passphrase}
            onChange={(event) => setPassphrase(event.target.value)}
          />
        )}
        <Button type="submit" variant="primary" disabled={busy} testId="unlock-inline-submit">
          Unlock
        </Button>
      </div>
      {failure && (
        <p role="alert" className="text-xs text-down">
          {failure.message}
        </p>
      )}
    </form>
  );
}

/**
 * The signer in the header: the active address (with how it signs), "Locked — unlock" with an unlock form under it
 * when the local key is locked, or a way to set one up. Never "no signer".
 */
export function SignerChip() {
  const status = useWallet((store) => store.status);
  const available = useWallet((store) => store.available);
  const injected = useWallet((store) => store.injected);
  const address = useWallet(activeAddress);
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent) => {
      if (!box.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    return () => document.removeEventListener('mousedown', close);
  }, [open]);

  const chip = 'inline-flex items-center gap-1.5 rounded-lg border border-line px-2.5 py-1.5 text-sm font-semibold';
  if (address) {
    const Icon = injected ? Wallet : status?.active === 'ledger' ? Usb : KeyRound;
    const how = injected ? 'browser wallet' : status?.active === 'ledger' ? 'Ledger' : 'local key';
    return (
      <Link to="/settings" testId="signer-badge" className={cn(chip, 'text-fg hover:bg-raised no-underline')}>
        <Icon size={15} aria-hidden="true" />
        <span className="tabular">{shortAddress(address)}</span>
        <span className="sr-only">, signing with the {how}</span>
      </Link>
    );
  }
  if (status?.localKey && !status.localKey.unlocked) {
    return (
      <div className="relative" ref={box}>
        <button
          type="button"
          data-testid="signer-badge"
          aria-expanded={open}
          onClick={() => setOpen(!open)}
          className={cn(chip, 'cursor-pointer border-warn/50 bg-warn-soft text-warn')}
        >
          <Lock size={15} aria-hidden="true" /> Locked — unlock
        </button>
        {open && (
          <div className="absolute right-0 z-30 mt-2 w-80 rounded-xl border border-line bg-surface p-4 shadow-xl">
            <UnlockInline autoFocus onUnlocked={() => setOpen(false)} />
          </div>
        )}
      </div>
    );
  }
  return (
    <Link to="/settings" testId="signer-badge" className={cn(chip, 'text-link hover:bg-raised no-underline')}>
      <KeyRound size={15} aria-hidden="true" />
      {available ? 'Set up a signer' : 'Read only'}
    </Link>
  );
}
