import { type Address, getAddress, isAddressEqual, type Log, parseEventLogs } from 'viem';
import type { ActivityMoved, ActivityMovement } from '../../src-shared/appChannelTypes';
import { launchTokenAbi, tradeRouterAbi } from '../../src-shared/generated/abis';

/** The contracts whose events say what moved: the router's Trade, and WBNB to tell wrapped proceeds from native. */
export interface MovedAddresses {
  router?: Address;
  wbnb: Address;
}

/**
 * What a confirmed transaction moved for `wallet`, from its receipt's logs, to the wei:
 * - received: every ERC-20 Transfer to the wallet, summed by token (a buy's tokens, a launch's first buy, a sale's
 *   proceeds in a token, WBNB where a sale's BNB was refused and wrapped); and a native sale's BNB, which moves with no
 *   log of its own: the router's Trade event gives it, the gross `pairAmount` less the `siteFee` it kept;
 * - paid: what the router's Trade event says the wallet paid (a buy's pair, fee included; a sale's tokens).
 *
 * @example movedByReceipt(receipt.logs, wallet, { router, wbnb }) // { received: [{ currency: token, wei: '…' }], paid: [{ currency: 'BNB', wei: '…' }] }
 */
export function movedByReceipt(logs: readonly Log[], wallet: Address, addresses: MovedAddresses): ActivityMoved {
  const received = new Map<Address | 'BNB', bigint>();
  const add = (currency: Address | 'BNB', wei: bigint) => {
    if (wei > 0n) received.set(currency, (received.get(currency) ?? 0n) + wei);
  };
  const transfers = parseEventLogs({ abi: launchTokenAbi, eventName: 'Transfer', logs: logs as Log[], strict: true });
  for (const transfer of transfers) {
    if (isAddressEqual(transfer.args.to, wallet) && !isAddressEqual(transfer.args.from, wallet)) {
      // Logs carry addresses in lower case: stored checksummed, as every address the app shows.
      add(getAddress(transfer.address), transfer.args.value);
    }
  }
  const paid: ActivityMovement[] = [];
  const { router, wbnb } = addresses;
  const trades = router
    ? parseEventLogs({ abi: tradeRouterAbi, eventName: 'Trade', logs: logs as Log[], strict: true }).filter(
        (trade) => isAddressEqual(trade.address, router) && isAddressEqual(trade.args.wallet, wallet),
      )
    : [];
  for (const { args } of trades) {
    const native = isAddressEqual(args.pair, wbnb);
    if (args.isBuy) {
      paid.push({ currency: native ? 'BNB' : getAddress(args.pair), wei: args.pairAmount.toString() });
      continue;
    }
    paid.push({ currency: getAddress(args.token), wei: args.tokenAmount.toString() });
    // A sale into BNB pays the wallet natively, which leaves no log; refused, it pays WBNB, whose Transfer is counted.
    if (native && !received.has(getAddress(wbnb))) add('BNB', args.pairAmount - args.siteFee);
  }
  return { received: [...received].map(([currency, wei]) => ({ currency, wei: wei.toString() })), paid };
}
