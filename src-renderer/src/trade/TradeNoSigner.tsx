import { Link } from '../router/Link';
import { UnlockInline } from '../wallet/SignerState';
import { useWallet } from '../wallet/walletStore';

/**
 * Where the button would be without a signer: the unlock for a locked key, else where to set one up (or, on a page
 * opened without the app's token, how to get one). Outside the trade form: the unlock is a form of its own, and forms
 * do not nest.
 */
export function TradeNoSigner() {
  const status = useWallet((s) => s.status);
  const available = useWallet((s) => s.available);
  if (status?.localKey !== undefined && status?.localKey?.unlocked === false) {
    return (
      <div className="mt-3">
        <UnlockInline />
      </div>
    );
  }
  return (
    <p className="mt-3 text-sm text-muted" data-testid="trade-no-signer">
      {available ? (
        <>
          Set up a signer in <Link to="/settings">Settings</Link> to trade.
        </>
      ) : (
        <>
          Open the app with its token to trade (see <Link to="/settings">Settings</Link>).
        </>
      )}
    </p>
  );
}
