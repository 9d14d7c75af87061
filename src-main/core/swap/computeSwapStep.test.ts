import { describe, expect, it } from 'vitest';
import { computeSwapStep } from './computeSwapStep';

// Vectors from Uniswap v3-core's SwapMath spec: the same library PancakeSwap V3 ships.
const Q96 = 2n ** 96n;
const E18 = 10n ** 18n;
/** sqrt(1.01) * 2^96 and sqrt(10) * 2^96, as the spec's encodePriceSqrt gives them. */
const PRICE_1_01 = 79623317895830914510487008059n;
const PRICE_10 = 250541448375047931186501464011n;

describe('computeSwapStep', () => {
  it('stops at the target when the exact input is more than enough, the fee on what was used', () => {
    expect(computeSwapStep(Q96, PRICE_1_01, 2n * E18, E18, 600)).toEqual({
      sqrtPriceNextX96: PRICE_1_01,
      amountIn: 9975124224178055n,
      amountOut: 9925619580021728n,
      feeAmount: 5988667735148n,
    });
  });

  it('stops at the target when the exact output is more than the range holds', () => {
    expect(computeSwapStep(Q96, PRICE_1_01, 2n * E18, -E18, 600)).toEqual({
      sqrtPriceNextX96: PRICE_1_01,
      amountIn: 9975124224178055n,
      amountOut: 9925619580021728n,
      feeAmount: 5988667735148n,
    });
  });

  it('spends the whole exact input short of the target', () => {
    const step = computeSwapStep(Q96, PRICE_10, 2n * E18, E18, 600);
    expect(step).toEqual({
      sqrtPriceNextX96: 118818475322642227089037862318n,
      amountIn: 999400000000000000n,
      amountOut: 666399946655997866n,
      feeAmount: 600000000000000n,
    });
    expect(step.amountIn + step.feeAmount).toBe(E18);
  });

  it('pays the whole exact output short of the target', () => {
    expect(computeSwapStep(Q96, PRICE_10, 2n * E18, -E18, 600)).toEqual({
      sqrtPriceNextX96: 158456325028528675187087900672n,
      amountIn: 2000000000000000000n,
      amountOut: E18,
      feeAmount: 1200720432259356n,
    });
  });

  it('caps the output at the amount asked for when rounding the price up would pay a wei more', () => {
    expect(
      computeSwapStep(
        417332158212080721273783715441582n,
        1452870262520218020823638996n,
        159344665391607089467575320103n,
        -1n,
        1,
      ),
    ).toEqual({ sqrtPriceNextX96: 417332158212080721273783715441581n, amountIn: 1n, amountOut: 1n, feeAmount: 1n });
  });

  it('takes the whole input as fee when it is too small to move the price', () => {
    expect(computeSwapStep(2413n, 79887613182836312n, 1985041575832132834610021537970n, 10n, 1872)).toEqual({
      sqrtPriceNextX96: 2413n,
      amountIn: 0n,
      amountOut: 0n,
      feeAmount: 10n,
    });
  });

  it('reaches a target price of 1 using part of the input', () => {
    const step = computeSwapStep(2n, 1n, 1n, 3915081100057732413702495386755767n, 1);
    expect(step).toEqual({
      sqrtPriceNextX96: 1n,
      amountIn: 39614081257132168796771975168n,
      amountOut: 0n,
      feeAmount: 39614120871253040049813n,
    });
  });

  it('pays nothing out of a range too thin to hold a wei, still charging for the move', () => {
    const price = 20282409603651670423947251286016n;
    expect(computeSwapStep(price, (price * 11n) / 10n, 1024n, -4n, 3000)).toEqual({
      sqrtPriceNextX96: (price * 11n) / 10n,
      amountIn: 26215n,
      amountOut: 0n,
      feeAmount: 79n,
    });
    expect(computeSwapStep(price, (price * 9n) / 10n, 1024n, -263000n, 3000)).toEqual({
      sqrtPriceNextX96: (price * 9n) / 10n,
      amountIn: 1n,
      amountOut: 26214n,
      feeAmount: 1n,
    });
  });

  it('moves nothing without liquidity but still reaches the target', () => {
    expect(computeSwapStep(Q96, PRICE_10, 0n, E18, 2500)).toEqual({
      sqrtPriceNextX96: PRICE_10,
      amountIn: 0n,
      amountOut: 0n,
      feeAmount: 0n,
    });
  });
});
