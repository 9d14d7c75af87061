import { useQuery } from '@tanstack/react-query';
import { Check, Share2 } from 'lucide-react';
import { useState } from 'react';
import type { Address } from 'viem';
import { isShareableLink } from '../../../src-shared/publicLinkBase';
import { fetchReferralLink, fetchReferrer } from '../referrals/referralsApi';
import { Button } from '../ui/Button';
import { useClipboard } from '../ui/useClipboard';
import { NoShareLink } from './NoShareLink';
import { publicPageLink, usePublicLinkBase } from './shareLinks';

/**
 * Copies a link to this token's page: the person's referral link when they may refer (a registered referrer, or a
 * creator of a launched token), so trades through it pay them; the plain page link under the public base otherwise.
 * Without a public base there is no link others could open: the button offers the address and the explorer instead.
 * Where the browser refuses the clipboard, the link is shown selected to copy by hand.
 */
export function TokenShare({ token, wallet }: { token: string; wallet: Address | null }) {
  const path = `/token/${token}`;
  const referral = useQuery({
    queryKey: ['referrals', wallet, 'link', path],
    queryFn: async () => {
      const record = await fetchReferrer(wallet as Address);
      return record.eligible ? (await fetchReferralLink(wallet as Address, path)).link : null;
    },
    enabled: wallet !== null,
    staleTime: 60_000,
    retry: false,
  });
  const base = usePublicLinkBase();
  const referring = typeof referral.data === 'string' && isShareableLink(referral.data);
  const link = referring ? (referral.data as string) : publicPageLink(base, path);
  const { state, copy: copyText } = useClipboard(2000);
  const [open, setOpen] = useState(false);

  if (link === null) {
    // No link that opens for anyone else: the address and the explorer, behind one button like the link would be.
    return (
      <div className="flex flex-col items-end gap-1">
        <Button
          size="sm"
          testId="token-share"
          data-link=""
          data-referral="no"
          aria-expanded={open}
          icon={<Share2 size={14} aria-hidden="true" />}
          onClick={() => setOpen(!open)}
        >
          Share
        </Button>
        {open && (
          <div className="w-80 rounded-lg border border-line bg-surface p-3 shadow-sm">
            <NoShareLink token={token} testId="token-share-none" compact />
          </div>
        )}
      </div>
    );
  }

  const copy = () => copyText(link);

  return (
    <div className="flex flex-col items-end gap-1">
      <Button
        size="sm"
        testId="token-share"
        data-link={link}
        data-referral={referring ? 'yes' : 'no'}
        icon={state === 'copied' ? <Check size={14} aria-hidden="true" /> : <Share2 size={14} aria-hidden="true" />}
        title={
          referring ? 'Copy your referral link to this token: trades through it pay you' : 'Copy the link to this token'
        }
        onClick={() => void copy()}
      >
        {state === 'copied' ? 'Link copied' : referring ? 'Share your referral link' : 'Share'}
      </Button>
      {state === 'refused' && (
        <input
          readOnly
          value={link}
          aria-label="Link to copy"
          data-testid="token-share-text"
          className="w-72 text-xs"
          ref={(field) => field?.select()}
        />
      )}
    </div>
  );
}
