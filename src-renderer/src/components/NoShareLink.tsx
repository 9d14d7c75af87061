import { ExternalLink } from 'lucide-react';
import { explorerTokenLink } from '../../../src-shared/explorerLink';
import { CopyButton } from '../referrals/CopyButton';
import { Link } from '../router/Link';
import { useSettingsStore } from '../store/settingsStore';

/** Why the chain has no explorer link, said where BscScan's would be. */
function noExplorerReason(network: string | null): string {
  if (network === 'fork') return 'No explorer shows a rehearsal: the fork runs on this computer only.';
  if (network === 'devnet') return 'No explorer shows the devnet: it runs on this computer only.';
  return 'No block explorer is known for this chain.';
}

/**
 * What to share when the app has no public link base: what a shareable link needs, and instead of a link that would
 * open for nobody else, the token's address to copy and its page on the chain's block explorer (none on the devnet,
 * said so).
 */
export function NoShareLink({
  token,
  testId,
  compact,
  explained,
}: {
  token: string;
  testId: string;
  compact?: boolean;
  /** The page already says what a shareable link needs: only the address and the explorer are shown. */
  explained?: boolean;
}) {
  const settings = useSettingsStore((s) => s.state);
  const chainId = settings.status === 'ready' ? settings.settings.chainId : null;
  const network = settings.status === 'ready' ? settings.settings.network : null;
  const explorer = chainId === null ? null : explorerTokenLink(chainId, token);
  return (
    <div className="flex flex-col gap-2 text-sm" data-testid={testId} data-explorer={explorer ? 'yes' : 'no'}>
      {!explained && (
        <p className="text-muted" data-testid={`${testId}-why`}>
          {compact ? 'No link to share: ' : 'No link to share yet: '}a link others can open needs the public base of
          shared links, an https:// site serving this app's pages, set in <Link to="/settings">Settings</Link>. A link
          to this computer or to the app's own scheme opens for nobody else.
        </p>
      )}
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-[0.8125rem] font-medium">Token address</span>
        <code className="min-w-0 font-mono text-xs break-all" data-testid={`${testId}-address`}>
          {token}
        </code>
        <CopyButton text={token} testId={`${testId}-address-copy`} label="Copy address" />
      </div>
      {explorer ? (
        <a
          href={explorer.link}
          target="_blank"
          rel="noopener noreferrer"
          className="inline-flex items-center gap-1 self-start text-primary hover:underline"
          data-testid={`${testId}-explorer`}
        >
          <ExternalLink size={14} aria-hidden="true" /> View on {explorer.name}
        </a>
      ) : (
        <p className="text-xs text-muted" data-testid={`${testId}-no-explorer`}>
          {noExplorerReason(network)}
        </p>
      )}
    </div>
  );
}
