/**
 * The steps of a pool state's swaps that reach their target, worked out once per state and direction: a swap with the
 * default limit takes them in order for as long as its amount fills them, so each costs it a compare and a
 * subtraction where the loop computes two or three sqrt-price deltas (GET /quote makes one swap per quote).
 */

import { MAX_SQRT_RATIO, MIN_SQRT_RATIO } from '../math/tickMath';
import { PIPS } from './computeSwapStep';
import { divRoundingUp, MAX_INT256 } from './fullMath';
import type { PoolState } from './poolState';
import { startWalk, step, type Walk } from './swapWalk';

/** The default limits, the ends of the price range (QuoterV2's). */
export const LIMIT_DOWN = MIN_SQRT_RATIO + 1n;
export const LIMIT_UP = MAX_SQRT_RATIO - 1n;

/**
 * A step of a pool state's swap in one direction that reaches its target (the next tick, word edge or the price
 * limit), as the loop takes it when the amount left is enough: what it takes in and pays out, and where it leaves the
 * pool. Every swap from that state with the default limit takes the same steps, in the same order, for as long as the
 * amount fills them, so they are worked out once per state and direction.
 */
export interface FullStep {
  /** Exact input: the least amount left (fee included) with which computeSwapStep reaches the target. */
  inputToFill: bigint;
  /** The step's input with its fee (what an exact input's remainder goes down by). */
  inputWithFee: bigint;
  /** The step's output: exact output fills the step when at least this much is left to receive. */
  output: bigint;
  fee: bigint;
  price: bigint;
  tick: number;
  liquidity: bigint;
  cursor: number;
  crossed: number;
}

/** A pool state's full steps in one direction, found as far as swaps have needed them. */
interface FullSteps {
  steps: FullStep[];
  /** Where the last step left the pool; undefined once no step can follow (the limit reached, or one not cached). */
  frontier: Walk | undefined;
}

/** Steps kept per state and direction: past them, a swap walks on step by step. */
const MAX_FULL_STEPS = 64;
/** By pool state (states are never changed, only replaced: applyPoolEvents) and direction: [up, down]. */
const fullStepsByPool = new WeakMap<PoolState, [FullSteps | undefined, FullSteps | undefined]>();

/**
 * Moves `walk` over the steps of `pool` that its amount fills whole, from the state's cached full steps: a compare and
 * a subtraction each, where the loop computes two or three sqrt-price deltas. The same wei as the loop: a step the
 * amount fills leaves exactly what the loop would leave. Returns the first step it does not fill, when cached (so
 * never once the amount is used up).
 */
export function skipFullSteps(
  pool: PoolState,
  zeroForOne: boolean,
  exactInput: boolean,
  walk: Walk,
): FullStep | undefined {
  const cached = fullStepsOf(pool, zeroForOne);
  for (let at = 0; ; at++) {
    const full = at < cached.steps.length ? cached.steps[at] : extend(pool, zeroForOne, cached);
    if (full === undefined) return undefined;
    if (exactInput) {
      if (walk.remaining < full.inputToFill) return full;
      walk.remaining -= full.inputWithFee;
      walk.calculated -= full.output;
    } else {
      if (-walk.remaining < full.output) return full;
      walk.remaining += full.output;
      walk.calculated += full.inputWithFee;
    }
    walk.feeAmount += full.fee;
    walk.price = full.price;
    walk.tick = full.tick;
    walk.liquidity = full.liquidity;
    walk.cursor = full.cursor;
    walk.ticksCrossed += full.crossed;
    if (walk.remaining === 0n) return undefined;
  }
}

function fullStepsOf(pool: PoolState, zeroForOne: boolean): FullSteps {
  let both = fullStepsByPool.get(pool);
  if (both === undefined) {
    both = [undefined, undefined];
    fullStepsByPool.set(pool, both);
  }
  const side = zeroForOne ? 1 : 0;
  let cached = both[side];
  if (cached === undefined) {
    cached = { steps: [], frontier: startWalk(pool, zeroForOne, 0n) };
    both[side] = cached;
  }
  return cached;
}

/**
 * The next full step after the cached ones, cached in turn: the loop's own step taken with an amount no step can
 * exhaust. Undefined when there is none: the limit reached, the cap, a step that would not reach its target, or one
 * the pool would revert on (the loop then meets it itself, and throws as the pool does).
 */
function extend(pool: PoolState, zeroForOne: boolean, cached: FullSteps): FullStep | undefined {
  const from = cached.frontier;
  const limit = zeroForOne ? LIMIT_DOWN : LIMIT_UP;
  if (from === undefined || from.price === limit || cached.steps.length >= MAX_FULL_STEPS) return undefined;
  const walk: Walk = { ...from, remaining: MAX_INT256, calculated: 0n, feeAmount: 0n, ticksCrossed: 0 };
  let reached: boolean;
  try {
    reached = step(pool, zeroForOne, limit, true, walk);
  } catch {
    cached.frontier = undefined;
    return undefined;
  }
  const input = MAX_INT256 - walk.remaining;
  const inputNet = input - walk.feeAmount;
  const feeRest = PIPS - BigInt(pool.fee);
  const inputToFill = divRoundingUp(inputNet * PIPS, feeRest);
  // A step the amount did not carry to its target is not full: the loop takes it, and every one after it.
  if (!reached || inputToFill > MAX_INT256) {
    cached.frontier = undefined;
    return undefined;
  }
  const full: FullStep = {
    inputToFill,
    inputWithFee: input,
    output: -walk.calculated,
    fee: walk.feeAmount,
    price: walk.price,
    tick: walk.tick,
    liquidity: walk.liquidity,
    cursor: walk.cursor,
    crossed: walk.ticksCrossed,
  };
  cached.steps.push(full);
  cached.frontier = walk;
  return full;
}
