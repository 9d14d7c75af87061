import { useQuery } from '@tanstack/react-query';
import { Check, Copy, ExternalLink, PartyPopper } from 'lucide-react';
import type { Address } from 'viem';
import { isShareableLink } from '../../../src-shared/publicLinkBase';
import { NoShareLink } from '../components/NoShareLink';
import { publicPageLink, usePublicLinkBase } from '../components/shareLinks';
import { fetchReferralLink, fetchReferrer } from '../referrals/referralsApi';
import { useRouter } from '../router/routes';
import { Button } from '../ui/Button';
import { Card } from '../ui/Card';
import { TokenLogo } from '../ui/TokenLogo';
import { useClipboard } from '../ui/useClipboard';

/** A launch that went through: what the success screen names. */
export interface LaunchedToken {
  token: Address;
  name: string;
  symbol: string;
  image: string | null;
  hash: string | null;
  creator: Address;
}

/**
 * The link to share: the person's referral link to the token when they are a registered referrer (trades through it
 * pay them), else the token page's plain link under the public base; null without a public base, since a link to this
 * computer or the app's own scheme opens for nobody else.
 */
function useShareLink(creator: Address, token: Address): { link: string; referral: boolean } | null {
  const plain = publicPageLink(usePublicLinkBase(), `/token/${token}`);
  const query = useQuery({
    queryKey: ['launch', 'share-link', creator, token],
    queryFn: async () => {
      const record = await fetchReferrer(creator);
      if (!record.registered) return null;
      return (await fetchReferralLink(creator, `/token/${token}`)).link;
    },
    staleTime: Number.POSITIVE_INFINITY,
  });
  if (query.data && isShareableLink(query.data)) return { link: query.data, referral: true };
  return plain ? { link: plain, referral: false } : null;
}

/** Copies `text`; where the browser refuses, the text is shown selected for copying by hand. */
function CopyField({ label, text, testId, mono }: { label: string; text: string; testId: string; mono?: boolean }) {
  const { state, copy } = useClipboard();
  const copied = state === 'copied';
  return (
    <div className="flex flex-col gap-1.5">
      <span className="text-[0.8125rem] font-medium">{label}</span>
      <div className="flex gap-2">
        <input
          readOnly
          value={text}
          aria-label={label}
          onFocus={(event) => event.target.select()}
          className={mono ? 'min-w-0 flex-1 font-mono text-xs' : 'min-w-0 flex-1 text-sm'}
          data-testid={testId}
        />
        <Button
          icon={copied ? <Check size={14} aria-hidden="true" /> : <Copy size={14} aria-hidden="true" />}
          // Refused, the field beside it stays there to copy from by hand.
          onClick={() => void copy(text)}
          testId={`${testId}-copy`}
          aria-label={`Copy ${label.toLowerCase()}`}
        >
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </div>
    </div>
  );
}

/**
 * After the launch: the token with its logo, the way to its page, the transaction's hash, and a link to share (or,
 * without a public link base, the token's address and explorer link).
 */
export function LaunchSuccess({ launched, onAnother }: { launched: LaunchedToken; onAnother: () => void }) {
  const navigate = useRouter((s) => s.navigate);
  const share = useShareLink(launched.creator, launched.token);
  return (
    <Card className="mx-auto flex max-w-xl flex-col gap-5 p-6" testId="launch-success" data-token={launched.token}>
      <div className="flex items-center gap-4">
        <TokenLogo
          src={launched.image}
          symbol={launched.symbol}
          address={launched.token}
          size="xl"
          testId="launch-success-logo"
        />
        <div className="min-w-0">
          <p className="flex items-center gap-1.5 text-sm font-semibold text-up">
            <PartyPopper size={16} aria-hidden="true" /> Launched
          </p>
          <h2 className="truncate text-xl font-semibold" data-testid="launch-success-name">
            {launched.name} <span className="text-muted">{launched.symbol}</span>
          </h2>
          <p className="font-mono text-xs text-muted" title={launched.token}>
            {launched.token}
          </p>
        </div>
      </div>
      <div className="flex gap-2">
        <Button
          variant="primary"
          size="lg"
          icon={<ExternalLink size={16} aria-hidden="true" />}
          onClick={() => navigate(`/token/${launched.token}`)}
          testId="launch-success-open"
        >
          Open the token page
        </Button>
        <Button size="lg" onClick={onAnother} testId="launch-success-another">
          Launch another
        </Button>
      </div>
      {share ? (
        <CopyField
          label={share.referral ? 'Your referral link to the token' : 'Link to share'}
          text={share.link}
          testId="launch-success-share"
        />
      ) : (
        <NoShareLink token={launched.token} testId="launch-success-no-link" />
      )}
      {launched.hash && <CopyField label="Transaction hash" text={launched.hash} testId="launch-success-hash" mono />}
    </Card>
  );
}
