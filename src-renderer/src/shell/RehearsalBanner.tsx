import { FlaskConical, HandCoins } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import type { WalletFunded } from '../../../src-shared/appChannelTypes';
import { formatAmount, formatExact } from '../../../src-shared/format/numbers';
import { queryClient } from '../api/queryClient';
import { failureOf } from '../failureOf';
import { useSettingsStore } from '../store/settingsStore';
import { Button } from '../ui/Button';
import { invoke } from '../wallet/appChannel';
import { activeAddress, useWallet, type WalletFailure } from '../wallet/walletStore';

const SOURCE_NAMES = { mainnet: 'BNB Chain mainnet', testnet: 'BNB Chain testnet', devnet: 'a devnet' } as const;

/**
 * One click of test BNB for the wallet that signs now: on the devnet and on a rehearsal, where BNB is not real.
 * `noSigner` is shown instead while no wallet signs (nothing by default).
 */
export function FundButton({ noSigner = null }: { noSigner?: ReactNode } = {}) {
  const address = useWallet(activeAddress);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ funded: WalletFunded } | { failure: WalletFailure } | null>(null);
  if (!address) return <>{noSigner}</>;
  const fund = async () => {
    setBusy(true);
    setResult(null);
    try {
      const funded = await invoke<WalletFunded>('wallet.fund', { address });
      setResult({ funded });
      await queryClient.invalidateQueries({ queryKey: ['app', 'bnb'] });
    } catch (cause) {
      setResult({ failure: failureOf(cause) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <span className="flex flex-wrap items-center gap-2">
      <Button
        size="sm"
        variant="secondary"
        icon={<HandCoins size={14} aria-hidden="true" />}
        onClick={() => void fund()}
        disabled={busy}
        testId="fund-wallet"
      >
        {busy ? 'Sending…' : 'Add 100 test BNB'}
      </Button>
      {result && 'funded' in result && (
        <span data-testid="fund-result" className="text-xs">
          Sent. Now {formatAmount(BigInt(result.funded.balanceWei), 18, { significant: 6 })} BNB.
        </span>
      )}
      {result && 'failure' in result && (
        <span data-testid="fund-failure" className="text-xs text-down">
          {result.failure.message} {result.failure.fix}
        </span>
      )}
    </span>
  );
}

/**
 * A rehearsal says so on every page: the chain is a fork running under a chain id of its own, so what is signed here
 * cannot be sent to BNB Chain, and its BNB is not real. Test BNB is one click away for the person's own wallet.
 */
export function RehearsalBanner() {
  const settings = useSettingsStore((store) => store.state);
  const fork = useWallet((store) => store.info?.fork ?? null);
  if (settings.status !== 'ready' || settings.settings.network !== 'fork') return null;
  const chainId = settings.settings.chainId;
  return (
    <div
      role="note"
      data-testid="rehearsal-banner"
      className="flex flex-wrap items-center gap-x-3 gap-y-1.5 border-b border-warn/40 bg-warn-soft px-5 py-2 text-sm text-fg"
    >
      <FlaskConical size={16} aria-hidden="true" className="shrink-0 text-warn" />
      <span className="min-w-0 flex-1">
        <strong>Rehearsal</strong> on a fork of {fork ? SOURCE_NAMES[fork.sourceNetwork] : 'another chain'}
        {fork && <> at block {formatExact(BigInt(fork.block), 0)}</>}, running as chain {chainId}. Nothing signed here
        is valid on BNB Chain, and its BNB is not real.
      </span>
      <FundButton />
    </div>
  );
}
