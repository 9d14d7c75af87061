import {
  createPublicClient,
  createWalletClient,
  custom,
  maxUint256,
  type PublicClient,
  parseEther,
  toFunctionSelector,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Devnet, startDevnet } from '../../src-main/chain/devnet/startDevnet';
import { IPermit2, LaunchToken } from '../../src-main/chain/generated/contracts';
import { devnetChain, PERMIT2_ADDRESS } from '../../src-main/chain/networks';
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

  it("lets Permit2 move a holder's tokens for a spender the holder approved in Permit2, and nobody else", async () => {
    const holder = privateKeyToAccount(devnet.accounts[2]?.privateKey ?? '0x');
    const spender = privateKeyToAccount(devnet.accounts[3]?.privateKey ?? '0x');
    const stranger = privateKeyToAccount(devnet.accounts[4]?.privateKey ?? '0x');
    const walletOf = (account: typeof holder) =>
      createWalletClient({ account, chain: devnetChain, transport: custom(devnet.provider) });
    const hash = await walletOf(holder).deployContract({
      abi: LaunchToken.abi,
      bytecode: LaunchToken.bytecode,
      args: ['T', 'T', 100n],
    });
    const address = (await client.getTransactionReceipt({ hash })).contractAddress;
    if (!address) throw new Error('not deployed');
    const token = { address, abi: LaunchToken.abi } as const;
    const permit2 = { address: PERMIT2_ADDRESS, abi: IPermit2.abi } as const;
    expect(
      await client.readContract({ ...token, functionName: 'allowance', args: [holder.address, PERMIT2_ADDRESS] }),
    ).toBe(maxUint256);
    // It cannot be lowered, so nobody believes they revoked it; setting it to what it is changes nothing.
    for (const amount of [0n, 5n]) {
      expect(
        await revertName(
          client.simulateContract({
            ...token,
            account: holder,
            functionName: 'approve',
            args: [PERMIT2_ADDRESS, amount],
          }),
        ),
      ).toBe('AllowanceFixed');
    }
    expect(
      await revertName(
        client.simulateContract({
          ...token,
          account: holder,
          functionName: 'approve',
          args: [PERMIT2_ADDRESS, maxUint256],
        }),
      ),
    ).toBe('ok');
    /** What Permit2 answers `who` pulling `amount` of the holder's tokens to itself. */
    const pullThroughPermit2 = (who: typeof holder, amount: bigint) =>
      revertName(
        client.simulateContract({
          ...permit2,
          account: who,
          functionName: 'transferFrom',
          args: [holder.address, who.address, amount, address],
        }),
      );
    // Through Permit2 without its approval of the spender: refused by Permit2, for the spender as for a stranger.
    for (const who of [spender, stranger]) expect(await pullThroughPermit2(who, 1n)).not.toBe('ok');
    // The holder's one approval, in Permit2, names the spender, an amount and an end date.
    const expiry = Number((await client.getBlock()).timestamp) + 3600;
    await walletOf(holder).writeContract({
      ...permit2,
      functionName: 'approve',
      args: [address, spender.address, 30n, expiry],
    });
    await walletOf(spender).writeContract({
      ...permit2,
      functionName: 'transferFrom',
      args: [holder.address, spender.address, 30n, address],
    });
    expect(await client.readContract({ ...token, functionName: 'balanceOf', args: [spender.address] })).toBe(30n);
    // Its 30 are spent, and a stranger still has nothing.
    for (const who of [spender, stranger]) expect(await pullThroughPermit2(who, 1n)).not.toBe('ok');
    // Any other spender still needs the holder's own approval of the token.
    expect(
      await revertName(
        client.simulateContract({
          ...token,
          account: stranger,
          functionName: 'transferFrom',
          args: [holder.address, stranger.address, 1n],
        }),
      ),
    ).toBe('InsufficientAllowance');
  });
});
