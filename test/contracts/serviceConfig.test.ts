import {
  type Address,
  createPublicClient,
  createWalletClient,
  custom,
  type Hex,
  type PublicClient,
  parseEther,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Devnet, startDevnet } from '../../src-main/chain/devnet/startDevnet';
import { ServiceConfig } from '../../src-main/chain/generated/contracts';
import { devnetChain } from '../../src-main/chain/networks';
import { type DevnetTestClient, devnetTestClient } from '../support/devnetTestClient';
import { revertName } from '../support/revertName';

let devnet: Devnet;
let client: PublicClient;
let config: Address;
let testClient: DevnetTestClient;
let snapshot: Hex | undefined;

function walletOf(index: number) {
  const key = devnet.accounts[index]?.privateKey;
  if (!key) throw new Error(`no test account ${index}`);
  return createWalletClient({
    account: privateKeyToAccount(key),
    chain: devnetChain,
    transport: custom(devnet.provider),
  });
}

/** Sends a config call from a test account; resolves to the custom error's name when it reverts, or 'ok'. */
function send(index: number, functionName: string, args: readonly unknown[]): Promise<string> {
  const wallet = walletOf(index);
  return revertName(
    (async () => {
      const { request } = await client.simulateContract({
        account: wallet.account,
        address: config,
        abi: ServiceConfig.abi,
        functionName,
        args,
      } as never);
      const hash = await wallet.writeContract(request as never);
      expect((await client.getTransactionReceipt({ hash })).status).toBe('success');
    })(),
  );
}

const read = <T>(functionName: string) =>
  client.readContract({ address: config, abi: ServiceConfig.abi, functionName } as never) as Promise<T>;

beforeAll(async () => {
  devnet = await startDevnet();
  client = createPublicClient({ chain: devnetChain, transport: custom(devnet.provider) }) as PublicClient;
  testClient = devnetTestClient(devnet);
  config = devnet.contracts.config;
});
beforeEach(async () => {
  // Every test starts from the freshly deployed config.
  if (snapshot) await testClient.revert({ id: snapshot });
  snapshot = await testClient.snapshot();
});

describe('ServiceConfig', () => {
  it('lets the owner set fee rates up to the hard caps and no further', async () => {
    expect(await send(0, 'setFees', [300, 300, 5000])).toBe('ok');
    expect(await read('fees')).toEqual([300, 300, 5000, devnet.accounts[0]?.address]);
    expect(await send(0, 'setFees', [0, 0, 0])).toBe('ok');
    expect(await send(0, 'setFees', [301, 0, 0])).toBe('RateAboveCap');
    expect(await send(0, 'setFees', [100, 101, 0])).toBe('RateAboveCap');
    expect(await send(0, 'setFees', [100, 20, 5001])).toBe('RateAboveCap');
    expect(await read('fees')).toEqual([0, 0, 0, devnet.accounts[0]?.address]);
  });

  it('caps the launch fee at 1 BNB', async () => {
    expect(await send(0, 'setLaunchFee', [parseEther('1')])).toBe('ok');
    expect(await read('launchFeeWei')).toBe(parseEther('1'));
    expect(await send(0, 'setLaunchFee', [parseEther('1') + 1n])).toBe('LaunchFeeAboveCap');
  });

  it('pauses and unpauses launches', async () => {
    expect(await read('launchesPaused')).toBe(false);
    expect(await send(0, 'setLaunchesPaused', [true])).toBe('ok');
    expect(await read('launchesPaused')).toBe(true);
    expect(await send(0, 'setLaunchesPaused', [false])).toBe('ok');
    expect(await read('launchesPaused')).toBe(false);
  });

  it('moves the fee recipient, never to the zero address', async () => {
    const next = devnet.accounts[9]?.address;
    expect(await send(0, 'setFeeRecipient', [next])).toBe('ok');
    expect(await read('feeRecipient')).toBe(next);
    expect(await send(0, 'setFeeRecipient', ['0x0000000000000000000000000000000000000000'])).toBe('ZeroAddress');
  });

  it('refuses every setter to anyone but the owner', async () => {
    expect(await send(5, 'setFees', [1, 0, 0])).toBe('NotOwner');
    expect(await send(5, 'setLaunchFee', [1n])).toBe('NotOwner');
    expect(await send(5, 'setLaunchesPaused', [true])).toBe('NotOwner');
    expect(await send(5, 'setFeeRecipient', [devnet.accounts[5]?.address])).toBe('NotOwner');
    expect(await send(5, 'transferOwnership', [devnet.accounts[5]?.address])).toBe('NotOwner');
  });

  it('hands ownership over in two steps, after which only the new owner may set', async () => {
    const owner = devnet.accounts[0]?.address;
    const next = devnet.accounts[4]?.address;
    expect(await send(4, 'transferOwnership', [next])).toBe('NotOwner');
    // A proposal moves nothing: a mistyped address never receives the service, and can be withdrawn.
    expect(await send(0, 'transferOwnership', [devnet.accounts[5]?.address])).toBe('ok');
    expect(await read('owner')).toBe(owner);
    expect(await send(4, 'acceptOwnership', [])).toBe('NotPendingOwner');
    expect(await send(0, 'transferOwnership', ['0x0000000000000000000000000000000000000000'])).toBe('ok');
    expect(await send(5, 'acceptOwnership', [])).toBe('NotPendingOwner');
    expect(await send(0, 'transferOwnership', [next])).toBe('ok');
    expect(await read('pendingOwner')).toBe(next);
    expect(await send(0, 'setFees', [1, 0, 0])).toBe('ok');
    expect(await send(4, 'acceptOwnership', [])).toBe('ok');
    expect(await read('owner')).toBe(next);
    expect(await read('pendingOwner')).toBe('0x0000000000000000000000000000000000000000');
    expect(await send(0, 'setFees', [1, 0, 0])).toBe('NotOwner');
    expect(await send(4, 'setFees', [1, 0, 0])).toBe('ok');
  });
});
