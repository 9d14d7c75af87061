import { useQuery } from '@tanstack/react-query';
import type { Address } from 'viem';
import type { WalletBalance } from '../../../src-shared/appChannelTypes';
import { queryClient } from '../api/queryClient';
import { type Balances, fetchBalances } from '../api/tokens';
import { appChannelAvailable, invoke } from './appChannel';

/** The header keeps the signer's BNB fresh this often while it shows it. */
const BNB_REFRESH_MS = 10_000;

/*
 * One source for each balance a page shows. A wallet's holding of a token and its pair comes from one query per
 * (token, wallet), which every card reads; its BNB comes from one cache entry per wallet, which both the header's own
 * read and every /balances answer write, and which the header, the trade panel and the balances card all read. Two
 * reads made at different moments can no longer show two different amounts side by side.
 */

const bnbKey = (wallet: string | null) => ['app', 'bnb', wallet] as const;

/** The query of a wallet's balances of a token and its pair, shared by every card that shows or checks them. */
export function balancesQuery(wallet: string | null, token: string) {
  return {
    queryKey: ['token', token, 'balances', wallet] as const,
    queryFn: async (): Promise<Balances> => {
      const balances = await fetchBalances(wallet as string, token);
      // The BNB it read is the newest reading of the wallet's BNB: every place that shows BNB takes it.
      queryClient.setQueryData<WalletBalance>(bnbKey(wallet), {
        address: balances.wallet as Address,
        bnbWei: balances.bnbWei,
      });
      return balances;
    },
    enabled: wallet !== null,
  };
}

/** A wallet's BNB, the one entry every place reads; kept fresh through main while shown (null until read). */
export function useBnbBalance(wallet: string | null): bigint | null {
  const query = useQuery({
    queryKey: bnbKey(wallet),
    queryFn: () => invoke<WalletBalance>('wallet.balance', { address: wallet }),
    enabled: appChannelAvailable && wallet !== null,
    refetchInterval: BNB_REFRESH_MS,
  });
  return query.data ? BigInt(query.data.bnbWei) : null;
}

/**
 * The wallet's balances of `token` and its pair, with its BNB (and the pair's amount when the pair is BNB) from the one
 * BNB entry, so the header, the trade panel and the balances card agree to the wei.
 */
export function useWalletBalances(wallet: string | null, token: string) {
  const query = useQuery(balancesQuery(wallet, token));
  const bnb = useBnbBalance(wallet);
  const read = query.data ?? null;
  const balances: Balances | null =
    read && bnb !== null
      ? {
          ...read,
          bnbWei: bnb.toString(),
          pair: read.pair.native ? { ...read.pair, wei: bnb.toString() } : read.pair,
        }
      : read;
  return { balances, error: query.error, refetch: query.refetch };
}
