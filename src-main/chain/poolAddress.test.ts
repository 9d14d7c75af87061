import { keccak256 } from 'viem';
import { describe, expect, it } from 'vitest';
import { RUNTIME_CODE } from './generated/runtimeCode';
import { PancakeV3Pool } from './generated/vendor';
import { PANCAKE_POOL_INIT_CODE_HASH, pancakePoolAddress } from './poolAddress';

describe('the pool init code hash', () => {
  it("is the hash of the published pool's creation code, which the devnet deploys", () => {
    expect(keccak256(PancakeV3Pool.bytecode)).toBe(PANCAKE_POOL_INIT_CODE_HASH);
  });

  it('is the one our TradeRouter has compiled in (pushed whole as a 32-byte constant)', () => {
    const router = RUNTIME_CODE.TradeRouter?.code.toLowerCase() ?? '';
    expect(router).toContain(`7f${PANCAKE_POOL_INIT_CODE_HASH.slice(2)}`);
  });

  it('puts the WBNB/USDT 0.05% pool of BSC mainnet where PancakeSwap has it', () => {
    // The published pool deployer, WBNB and USDT of chain 56, and the pool BscScan shows for them.
    const pool = pancakePoolAddress(
      '0x41ff9AA7e16B8B1a8a8dc4f0eFacd93D02d071c9',
      '0xbb4CdB9CBd36B01bD1cBaEBF2De08d9173bc095c',
      '0x55d398326f99059fF775485246999027B3197955',
      500,
    );
    expect(pool).toBe('0x36696169C63e42cd08ce11f5deeBbCeBae652050');
  });
});
