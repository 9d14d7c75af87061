import { Button } from '../ui/Button';
import { useWallet } from './walletStore';

/**
 * Walks the person through turning Blind signing on in the Ledger's Ethereum app: off on every new device, and every
 * trade, launch and approval here needs it. Says what it means (the device no longer shows what the call does, so the
 * review screen and the transaction hash are what is left to compare) and asks the device again when done.
 */
export function LedgerBlindSigningGuide() {
  const { status, run, busy } = useWallet();
  const app = status?.ledgerApp;
  return (
    <section
      className="mt-3 flex flex-col gap-2 rounded-xl border border-warn/40 bg-warn-soft p-4"
      data-testid="ledger-blind-signing-guide"
    >
      <h3 className="text-[0.9375rem] font-semibold">Turn on blind signing on the Ledger</h3>
      <p>
        Every trade, launch and approval here is a call to a contract (the router, the factory, Permit2). The Ledger's
        Ethereum app cannot decode these contracts, and with <strong>Blind signing</strong> off, as it is on a new
        Ledger, it refuses to sign them.
      </p>
      <p>
        With it on, the Ledger shows "Blind signing ahead", the contract's raw address, the amount, the fees and a
        transaction hash, but not what the call does. This app's review screen shows that, with the same hash: compare
        the two hashes before you hold to sign. Transfers and messages never need blind signing.
      </p>
      <ol className="m-0 flex list-decimal flex-col gap-1 pl-5">
        <li>On the Ledger, unlock it and open the Ethereum app{app ? ` (version ${app.version})` : ''}.</li>
        <li>
          Open the app's settings: on a Nano S Plus or Nano X, press the right button until <em>Settings</em> and press
          both buttons; on a Stax or Flex, tap the settings icon at the top right.
        </li>
        <li>
          Turn <em>Blind signing</em> on (it may ask you to confirm).
        </li>
        <li>Come back here and check again.</li>
      </ol>
      <p>You can turn it off again in the same place when you are done.</p>
      {app?.blindSigning && (
        <p data-testid="ledger-blind-signing-on" className="text-up">
          <strong>Blind signing is on now.</strong> Try again.
        </p>
      )}
      <Button
        className="self-start"
        variant="primary"
        testId="ledger-check-again"
        disabled={busy}
        onClick={() => void run('ledger.configuration')}
      >
        Check again
      </Button>
    </section>
  );
}
