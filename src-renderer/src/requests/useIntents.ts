import { useQuery } from '@tanstack/react-query';
import type { Address } from 'viem';
import { queryClient } from '../api/queryClient';
import { appChannelAvailable } from '../wallet/appChannel';
import { activeAddress, useWallet } from '../wallet/walletStore';
import { intentStatus, isOpen } from './intentStatus';
import { listIntents } from './intentsApi';

/** Bots may add requests at any time; the list is read again this often (never two reads at once). */
const POLL_MS = 5000;

const intentsKey = (wallet: Address | null) => ['intents', wallet] as const;

/** The wallet's prepared requests, newest first, polled; the Requests page and the navigation's count share it. */
export function useIntents(wallet: Address | null, enabled = true) {
  return useQuery({
    queryKey: intentsKey(wallet),
    queryFn: () => listIntents(wallet as Address),
    enabled: enabled && wallet !== null,
    refetchInterval: POLL_MS,
  });
}

/** Reads the wallet's requests again at once, after the person signed or rejected one. */
export function refreshIntents(wallet: Address): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: intentsKey(wallet) });
}

/**
 * How many requests wait for the signer, for the badge in the navigation. Asked only with a signer and the app's
 * channel (a page opened without the app's token has no wallet to ask for, and no right to its requests).
 */
export function useWaitingRequests(): number {
  const wallet = useWallet(activeAddress);
  const { data } = useIntents(wallet, appChannelAvailable);
  return data?.filter((intent) => isOpen(intentStatus(intent))).length ?? 0;
}
