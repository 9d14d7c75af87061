import {
  createPublicClient,
  createWalletClient,
  custom,
  type PublicClient,
  parseEther,
  toFunctionSelector,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Devnet, startDevnet } from '../../src-main/chain/devnet/startDevnet';
import { LaunchToken } from '../../src-main/chain/generated/contracts';
import { devnetChain } from '../../src-main/chain/networks';
import { revertName } from '../support/revertName';

let devnet: Devnet;
let client: PublicClient;

beforeAll(async () => {
  devnet = await startDevnet();
  client = createPublicClient({ chain: devnetChain, transport: custom(devnet.provider) }) as PublicClient;
});

describe('LaunchToken', () => {
  it('mints the whole fixed supply, with 18 decimals, to its creator and nobody else', async () => {
    const creator = privateKeyToAccount(devnet.accounts[2]?.privateKey ?? '0x');
    const wallet = createWalletClient({ account: creator, chain: devnetChain, transport: custom(devnet.provider) });
    const supply = parseEther('1000000000');
    const hash = await wallet.deployContract({
      abi: LaunchToken.abi,
      bytecode: LaunchToken.bytecode,
      args: ['Moon', 'MOON', supply],
    });
    const address = (await client.getTransactionReceipt({ hash })).contractAddress;
    if (!address) throw new Error('not deployed');
    const token = { address, abi: LaunchToken.abi } as const;
    expect(await client.readContract({ ...token, functionName: 'totalSupply' })).toBe(supply);
    expect(await client.readContract({ ...token, functionName: 'balanceOf', args: [creator.address] })).toBe(supply);
    expect(await client.readContract({ ...token, functionName: 'decimals' })).toBe(18);
    expect(await client.readContract({ ...token, functionName: 'name' })).toBe('Moon');
    expect(await client.readContract({ ...token, functionName: 'symbol' })).toBe('MOON');
  });

  it('has no owner, no mint and no way to change anything but balances and allowances', () => {
    const functions = LaunchToken.abi
      .filter((item) => item.type === 'function' && item.stateMutability !== 'view' && item.stateMutability !== 'pure')
      .map((item) => ('name' in item ? item.name : ''))
      .sort();
    expect(functions).toEqual(['approve', 'transfer', 'transferFrom']);
    // Nor is any such function reachable by selector in the deployed code.
    for (const signature of ['mint(address,uint256)', 'owner()', 'burn(uint256)']) {
      expect(LaunchToken.bytecode.includes(toFunctionSelector(signature).slice(2))).toBe(false);
    }
  });

  it('refuses transfers beyond the balance or the allowance, and to the zero address', async () => {
    const holder = privateKeyToAccount(devnet.accounts[2]?.privateKey ?? '0x');
    const spender = privateKeyToAccount(devnet.accounts[3]?.privateKey ?? '0x');
    const wallet = createWalletClient({ account: holder, chain: devnetChain, transport: custom(devnet.provider) });
    const hash = await wallet.deployContract({
      abi: LaunchToken.abi,
      bytecode: LaunchToken.bytecode,
      args: ['T', 'T', 100n],
    });
    const address = (await client.getTransactionReceipt({ hash })).contractAddress;
    if (!address) throw new Error('not deployed');
    const token = { address, abi: LaunchToken.abi } as const;
    expect(
      await revertName(
        client.simulateContract({ ...token, account: holder, functionName: 'transfer', args: [spender.address, 101n] }),
      ),
    ).toBe('InsufficientBalance');
    expect(
      await revertName(
        client.simulateContract({
          ...token,
          account: holder,
          functionName: 'transfer',
          args: ['0x0000000000000000000000000000000000000000', 1n],
        }),
      ),
    ).toBe('ZeroRecipient');
    await wallet.writeContract({ ...token, functionName: 'approve', args: [spender.address, 10n] });
    expect(
      await revertName(
        client.simulateContract({
          ...token,
          account: spender,
          functionName: 'transferFrom',
          args: [holder.address, spender.address, 11n],
        }),
      ),
    ).toBe('InsufficientAllowance');
    expect(
      await revertName(
        client.simulateContract({
          ...token,
          account: spender,
          functionName: 'transferFrom',
          args: [holder.address, spender.address, 10n],
        }),
      ),
    ).toBe('ok');
  });
});
