import { type Address, formatEther, type PublicClient, parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { WalletFunded } from '../../src-shared/appChannelTypes';
import type { Devnet } from '../chain/devnet/startDevnet';
import { WalletError } from './walletError';

/** What one "add test BNB" sends. */
export const TEST_FUNDS_WEI = parseEther('100');
/** The test account that pays: the last one, which neither the devnet's seed nor the test fixtures trade from. */
const PAYER_INDEX = 19;
const TRANSFER_GAS = 21_000n;

/**
 * Sends test BNB from a test account to any wallet on the devnet or a rehearsal, so a person can try the app with
 * their own (Ledger) address. The transfer is a block of its own in the journal, so it is replayed on restart like
 * anything else done there. One transfer at a time, so two clicks never race for a nonce.
 */
export function testFaucet(devnet: Devnet, client: PublicClient): (address: Address) => Promise<WalletFunded> {
  const payerKey = devnet.accounts[PAYER_INDEX]?.privateKey;
  if (!payerKey) throw new Error(`the devnet has no test account ${PAYER_INDEX}`);
  const payer = privateKeyToAccount(payerKey);
  let queue: Promise<unknown> = Promise.resolve();

  async function send(address: Address): Promise<WalletFunded> {
    const [nonce, fees, balance] = await Promise.all([
      client.getTransactionCount({ address: payer.address, blockTag: 'pending' }),
      client.estimateFeesPerGas(),
      client.getBalance({ address: payer.address }),
    ]);
    if (balance < TEST_FUNDS_WEI + TRANSFER_GAS * fees.maxFeePerGas) {
      throw new WalletError(
        'SEND_FAILED',
        `The test account that hands out BNB has only ${formatEther(balance)} BNB left.`,
        'Fund the wallet from one of the other test accounts, or start a fresh devnet or rehearsal.',
      );
    }
    const raw = await payer.signTransaction({
      chainId: devnet.chainId,
      to: address,
      value: TEST_FUNDS_WEI,
      gas: TRANSFER_GAS,
      nonce,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    });
    const hash = await devnet.sendRawTransaction(raw);
    await devnet.included(hash);
    return {
      address,
      hash,
      bnbWei: TEST_FUNDS_WEI.toString(),
      balanceWei: (await client.getBalance({ address })).toString(),
    };
  }

  return (address) => {
    const next = queue.then(() => send(address));
    queue = next.catch(() => {});
    return next;
  };
}
