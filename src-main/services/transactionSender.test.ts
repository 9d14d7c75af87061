import type { Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import type { ChainContext } from '../chain/connectChain';
import { ServiceError } from '../core/serviceError';
import type { Signers } from '../signer/signers';
import type { ActivityEntry, ActivityStore } from '../store/activityStore';
import { TransactionSender } from './transactionSender';
import { WalletError } from './walletError';

const account = privateKeyToAccount(`0x${'11'.repeat(32)}`);
const TO: Address = '0x000000000000000000000000000000000000dEaD';

/** A node that answers the reads a send makes, and fails the ones `fail` names with `error`. */
function chainFailing(fail: 'sendRawTransaction' | 'getTransactionCount' | 'estimateGas', error: Error) {
  const answers: Record<string, () => Promise<unknown>> = {
    getTransactionCount: async () => 0,
    getBlock: async () => ({ baseFeePerGas: 1n }),
    getGasPrice: async () => 2n,
    request: async () => '0x1',
    estimateGas: async () => 21_000n,
    sendRawTransaction: async () => '0x',
  };
  answers[fail] = async () => {
    throw error;
  };
  return { network: 'devnet', chainId: 31337, client: answers } as unknown as ChainContext;
}

/** An activity list in memory: the sender's calls recorded, nothing else. */
function memoryStore() {
  const entries = new Map<string, Record<string, unknown>>();
  return {
    begin: (entry: { id: string }) => entries.set(entry.id, { ...entry, status: 'signing' }),
    signed: (id: string, signed: object) => Object.assign(entries.get(id) ?? {}, signed),
    failed: (id: string, error: string) => Object.assign(entries.get(id) ?? {}, { status: 'failed', error }),
    get: (id: string) => entries.get(id) as ActivityEntry | undefined,
  } as unknown as ActivityStore;
}

function senderOver(chain: ChainContext): TransactionSender {
  const signers = {
    requireAddress: () => account.address,
    signTransaction: (tx: Parameters<typeof account.signTransaction>[0]) => account.signTransaction(tx) as Promise<Hex>,
  } as unknown as Signers;
  return new TransactionSender(
    chain,
    signers,
    memoryStore(),
    () => {},
    () => {},
  );
}

const request = {
  tx: { chainId: 31337, to: TO, data: '0x' as Hex, value: 1n },
  step: 'main',
  kind: 'transfer',
  title: 't',
};

describe('a failed send keeps what the node said as its cause', () => {
  it('SEND_FAILED carries the refusal of the broadcast', async () => {
    const refusal = new Error('nonce too low');
    const failure = await senderOver(chainFailing('sendRawTransaction', refusal))
      .signAndSend(request)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(WalletError);
    expect(failure).toBeInstanceOf(ServiceError);
    expect(failure).toMatchObject({ code: 'SEND_FAILED' });
    expect((failure as WalletError).cause).toBe(refusal);
  });

  it('SEND_FAILED of a revert while estimating, and CHAIN_UNREACHABLE, carry the node answer too', async () => {
    const revert = new Error('execution reverted: TooLate');
    const reverted = await senderOver(chainFailing('estimateGas', revert))
      .prepare(request.tx)
      .catch((error: unknown) => error);
    expect(reverted).toMatchObject({ code: 'SEND_FAILED', cause: revert });
    const down = new Error('fetch failed');
    const unreachable = await senderOver(chainFailing('getTransactionCount', down))
      .prepare(request.tx)
      .catch((error: unknown) => error);
    expect(unreachable).toMatchObject({ code: 'CHAIN_UNREACHABLE', cause: down });
  });
});
