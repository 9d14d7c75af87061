import { type Abi, type AbiFunction, type Address, encodeFunctionData, erc20Abi, type Hex, keccak256 } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import type { ChainContext } from '../chain/connectChain';
import { LaunchFactory, TradeRouter } from '../chain/generated/contracts';
import { PrivateRpcError } from '../chain/privateRpc';
import { ServiceError } from '../core/serviceError';
import type { Signers } from '../signer/signers';
import type { ActivityEntry, ActivityStore } from '../store/activityStore';
import type { PrivateLane } from './privateLane';
import { headlessConfirmer } from './signingConfirmer';
import { type SendRequest, type SigningPolicy, TransactionSender } from './transactionSender';
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
    settled: (id: string, outcome: object) => Object.assign(entries.get(id) ?? {}, outcome),
    get: (id: string) => entries.get(id) as ActivityEntry | undefined,
    all: () => [...entries.values()],
  } as unknown as ActivityStore;
}

/** Every entry a memoryStore holds, as the sender left it. */
function entriesOf(store: ActivityStore): Record<string, unknown>[] {
  return (store as unknown as { all(): Record<string, unknown>[] }).all();
}

/** A policy that lets everything through unwarned: these tests are about sending, not judging. */
const OPEN_POLICY: SigningPolicy = {
  guard: () => {},
  messageGuard: () => 'challenge',
  judge: async () => ({ headline: 'a test transaction', warnings: [] }),
  confirmer: headlessConfirmer(false),
  maxGasPriceWei: 10n ** 10n,
  rpcName: 'the test node',
};

/** Prepares the request's transaction, then signs and sends it by the prepared id, as the app does. */
async function sendPrepared(sender: TransactionSender, request: SendRequest) {
  const prepared = await sender.prepare(request.tx);
  return sender.signAndSend({ ...request, prepared: prepared.id });
}

function senderOver(chain: ChainContext): TransactionSender {
  const signers = {
    requireAddress: () => account.address,
    signTransaction: (tx: Parameters<typeof account.signTransaction>[0]) => account.signTransaction(tx) as Promise<Hex>,
  } as unknown as Signers;
  return new TransactionSender(chain, signers, memoryStore(), OPEN_POLICY);
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
    const failure = await sendPrepared(senderOver(chainFailing('sendRawTransaction', refusal)), request).catch(
      (error: unknown) => error,
    );
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

/** A value of each ABI type, zero or empty, so a call's data is built whatever its parameters are. */
function zeroOf(param: { type: string; components?: readonly { type: string }[] }): unknown {
  if (param.type.endsWith('[]')) return [];
  if (param.type === 'tuple') return (param.components ?? []).map(zeroOf);
  if (param.type === 'address') return TO;
  if (param.type === 'bool') return false;
  if (param.type === 'string') return '';
  if (param.type === 'bytes') return '0x';
  if (param.type.startsWith('bytes')) return `0x${'00'.repeat(Number(param.type.slice(5)))}`;
  return param.type.startsWith('uint') || param.type.startsWith('int') ? 0n : undefined;
}

function callData(abi: Abi, functionName: string): Hex {
  const item = abi.find((entry) => entry.type === 'function' && entry.name === functionName) as AbiFunction;
  return encodeFunctionData({ abi: [item], functionName, args: item.inputs.map(zeroOf) } as never);
}

describe('private sending through a block builder', () => {
  const FACTORY: Address = '0x00000000000000000000000000000000000000fa';
  const ROUTER: Address = '0x00000000000000000000000000000000000000ab';
  const launch = { ...request, tx: { ...request.tx, to: FACTORY, data: callData(LaunchFactory.abi, 'launch') } };
  const buy = { ...request, tx: { ...request.tx, to: ROUTER, data: callData(TradeRouter.abi, 'buyExactIn') } };
  const approve = { ...request, tx: { ...request.tx, value: 0n, data: callData(erc20Abi, 'approve') } };

  /** A chain whose public broadcasts are recorded, a lane whose private ones are (failing with `refusal`). */
  function setUp(options: { trades: boolean; refusal?: PrivateRpcError }) {
    const publicSends: Hex[] = [];
    const privateSends: Hex[] = [];
    const client = {
      getTransactionCount: async () => 0,
      getBlock: async () => ({ baseFeePerGas: 1n }),
      getGasPrice: async () => 2n,
      request: async () => '0x1',
      estimateGas: async () => 21_000n,
      sendRawTransaction: async ({ serializedTransaction }: { serializedTransaction: Hex }) => {
        publicSends.push(serializedTransaction);
        return keccak256(serializedTransaction);
      },
      getTransactionReceipt: async () => ({ status: 'success', blockNumber: 1n, gasUsed: 21_000n }),
    };
    const chain = {
      network: 'devnet',
      chainId: 31337,
      client,
      addresses: { factory: FACTORY, router: ROUTER },
    } as unknown as ChainContext;
    const lane: PrivateLane = {
      trades: options.trades,
      rpc: {
        shownUrl: 'https://builder.example/…',
        async send(raw) {
          privateSends.push(raw);
          if (options.refusal) throw options.refusal;
        },
      },
    };
    const signers = {
      requireAddress: () => account.address,
      signTransaction: (tx: Parameters<typeof account.signTransaction>[0]) =>
        account.signTransaction(tx) as Promise<Hex>,
    } as unknown as Signers;
    const store = memoryStore();
    const sender = new TransactionSender(chain, signers, store, OPEN_POLICY, undefined, undefined, lane);
    return { sender, store, publicSends, privateSends };
  }

  it('sends a launch to the private RPC only, and records that it went privately', async () => {
    const { sender, publicSends, privateSends } = setUp({ trades: false });
    const sent = await sendPrepared(sender, launch);
    expect(privateSends.map((raw) => keccak256(raw))).toEqual([sent.hash]);
    expect(publicSends).toEqual([]);
    expect(sent).toMatchObject({ status: 'sent', privately: true });
  });

  it('sends buys privately only when asked, and approvals and other calls never', async () => {
    const off = setUp({ trades: false });
    await sendPrepared(off.sender, buy);
    await sendPrepared(off.sender, approve);
    expect(off.privateSends).toEqual([]);
    expect(off.publicSends).toHaveLength(2);

    const on = setUp({ trades: true });
    const bought = await sendPrepared(on.sender, buy);
    await sendPrepared(on.sender, approve);
    // A call to the router that is no trade, and a "launch" label on a call that is none, stay public.
    await sendPrepared(on.sender, { ...approve, tx: { ...approve.tx, to: ROUTER }, kind: 'launch' });
    expect(on.privateSends.map((raw) => keccak256(raw))).toEqual([bought.hash]);
    expect(on.publicSends).toHaveLength(2);
  });

  it('fails a refused or unreachable private send with what to do, never falling back to the public RPC', async () => {
    for (const [refusal, code] of [
      [new PrivateRpcError('refused', 'bundle rejected'), 'SEND_FAILED'],
      [new PrivateRpcError('unreachable', 'the connection was refused (nothing listens there)'), 'CHAIN_UNREACHABLE'],
    ] as const) {
      const { sender, store, publicSends, privateSends } = setUp({ trades: false, refusal });
      const failure = await sendPrepared(sender, launch).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(WalletError);
      expect(failure).toMatchObject({ code, cause: refusal });
      expect((failure as WalletError).message).toMatch(
        refusal.reason === 'refused' ? /private RPC .* refused the transaction: bundle rejected/ : /unreachable/,
      );
      expect((failure as WalletError).fix).toMatch(/private RPC URL in Settings, or clear it/);
      expect(privateSends).toHaveLength(1);
      expect(publicSends).toEqual([]);
      expect(entriesOf(store)).toEqual([expect.objectContaining({ status: 'failed', privately: true })]);
    }
  });
});
