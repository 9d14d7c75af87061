import { describe, expect, it } from 'vitest';
import { CompanionError } from './companionError';
import { isNonceTrouble, NonceManager } from './nonceManager';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('NonceManager', () => {
  it('hands concurrent sends of one account consecutive nonces, broadcast in order', async () => {
    const manager = new NonceManager();
    const broadcast: number[] = [];
    const sends = [30, 0, 10].map((delay) =>
      manager.send(
        1,
        '0xAbC0000000000000000000000000000000000001',
        async () => 7,
        async (nonce) => {
          await sleep(delay);
          broadcast.push(nonce);
          return nonce;
        },
      ),
    );
    expect(await Promise.all(sends)).toEqual([7, 8, 9]);
    expect(broadcast).toEqual([7, 8, 9]);
  });

  it('keeps accounts apart by chain and address, whatever the letter case', async () => {
    const manager = new NonceManager();
    const send = (chainId: number, address: string) =>
      manager.send(
        chainId,
        address,
        async () => 0,
        async (nonce) => nonce,
      );
    expect(await send(1, '0xab00000000000000000000000000000000000001')).toBe(0);
    expect(await send(1, '0xAB00000000000000000000000000000000000001')).toBe(1);
    expect(await send(2, '0xab00000000000000000000000000000000000001')).toBe(0);
  });

  it('reads the chain again after a nonce another sender took, and sends at the new one', async () => {
    const manager = new NonceManager();
    let chain = 3;
    const tried: number[] = [];
    const sent = await manager.send(
      1,
      '0x01',
      async () => chain,
      async (nonce) => {
        tried.push(nonce);
        if (nonce < 5) {
          chain = 5;
          throw new Error('nonce too low: 0x01 is at nonce 5, it has 3');
        }
        return nonce;
      },
    );
    expect(tried).toEqual([3, 5]);
    expect(sent).toBe(5);
  });

  it('gives up with NONCE_CONFLICT, naming the account and the fix, when every nonce is taken', async () => {
    const manager = new NonceManager();
    let chain = 0;
    const error = await manager
      .send(
        1,
        '0xBot',
        async () => chain++,
        async () => {
          throw new Error('replacement transaction underpriced');
        },
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CompanionError);
    expect(error).toMatchObject({
      code: 'NONCE_CONFLICT',
      detail: { address: '0xBot', nonces: [0, 1, 2, 3, 4, 5, 6, 7] },
    });
    expect((error as CompanionError).fix).toMatch(/own key/);
  });

  it('passes any other failure on, and the next send reads the chain again', async () => {
    const manager = new NonceManager();
    let reads = 0;
    const pending = async () => {
      reads++;
      return 10;
    };
    await expect(
      manager.send(1, '0x01', pending, async () => {
        throw new Error('insufficient funds for gas * price + value');
      }),
    ).rejects.toThrow(/insufficient funds/);
    expect(await manager.send(1, '0x01', pending, async (nonce) => nonce)).toBe(10);
    expect(reads).toBe(2);
  });

  it('knows a nonce failure from viem’s error chain', () => {
    const viemLike = Object.assign(new Error('Transaction failed'), {
      details: 'nonce too high: 0x01 is at nonce 4, it has 6',
    });
    expect(isNonceTrouble(new Error('wrapped', { cause: viemLike }))).toBe(true);
    expect(isNonceTrouble(new Error('execution reverted'))).toBe(false);
  });
});
