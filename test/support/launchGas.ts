import { createPublicClient, custom, type PublicClient, parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { startDevnet } from '../../src-main/chain/devnet/startDevnet';
import { devnetChain } from '../../src-main/chain/networks';
import { launcher } from './launcher';

/**
 * Gas of launches on a fresh devnet, in a fixed sequence: the source of the launch rows of the checked-in gas
 * snapshot and of `npm run bench`.
 */
export async function measureLaunchGas(): Promise<Record<string, number>> {
  const devnet = await startDevnet();
  const client = createPublicClient({ chain: devnetChain, transport: custom(devnet.provider) }) as PublicClient;
  const l = launcher(devnet, client);
  const gas = async (run: ReturnType<typeof l.launch>) => {
    const launched = await run;
    if (launched.result !== 'ok' || launched.gasUsed === undefined)
      throw new Error(`a measured launch failed: ${launched.result}`);
    return Number(launched.gasUsed);
  };
  const tenWallets = Array.from({ length: 10 }, (_, i) => ({
    wallet: privateKeyToAccount(devnet.accounts[i + 1]?.privateKey ?? '0x').address,
    bps: 1000,
  }));
  const figures: Record<string, number> = {};
  figures['launch flat (1 range), no first buy'] = await gas(l.launch({ saltSeed: 'flat' }));
  figures['launch 4 ranges, no first buy'] = await gas(
    l.launch({
      saltSeed: 'four',
      shape: [
        { width: 4000, bps: 1000 },
        { width: 8000, bps: 2000 },
        { width: 16000, bps: 3000 },
        { width: 0, bps: 4000 },
      ],
    }),
  );
  figures['launch 4 ranges, first buy split 10 ways'] = await gas(
    l.launch({
      saltSeed: 'four-buy',
      shape: [
        { width: 4000, bps: 1000 },
        { width: 8000, bps: 2000 },
        { width: 16000, bps: 3000 },
        { width: 0, bps: 4000 },
      ],
      firstBuy: parseEther('1'),
      firstBuyTo: tenWallets,
    }),
  );
  return figures;
}
