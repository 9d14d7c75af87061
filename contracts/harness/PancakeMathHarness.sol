// SPDX-License-Identifier: MIT
pragma solidity =0.7.6;

import {TickMath} from "@pancakeswap/v3-core/contracts/libraries/TickMath.sol";
import {SqrtPriceMath} from "@pancakeswap/v3-core/contracts/libraries/SqrtPriceMath.sol";
import {SwapMath} from "@pancakeswap/v3-core/contracts/libraries/SwapMath.sol";

/// @title PancakeSwap V3 math, exposed for tests
/// @notice The pool's own libraries, compiled as the pool is (solc 0.7.6), so our Solidity and TypeScript math can be
/// checked against them vector for vector. Test-only: never deployed outside the tests.
contract PancakeMathHarness {
    function getSqrtRatioAtTick(int24 tick) external pure returns (uint160) {
        return TickMath.getSqrtRatioAtTick(tick);
    }

    function getTickAtSqrtRatio(uint160 sqrtPriceX96) external pure returns (int24) {
        return TickMath.getTickAtSqrtRatio(sqrtPriceX96);
    }

    function getAmount0Delta(uint160 sqrtA, uint160 sqrtB, uint128 liquidity, bool roundUp)
        external
        pure
        returns (uint256)
    {
        return SqrtPriceMath.getAmount0Delta(sqrtA, sqrtB, liquidity, roundUp);
    }

    function getAmount1Delta(uint160 sqrtA, uint160 sqrtB, uint128 liquidity, bool roundUp)
        external
        pure
        returns (uint256)
    {
        return SqrtPriceMath.getAmount1Delta(sqrtA, sqrtB, liquidity, roundUp);
    }

    function computeSwapStep(
        uint160 sqrtPriceCurrent,
        uint160 sqrtPriceTarget,
        uint128 liquidity,
        int256 amountRemaining,
        uint24 feePips
    ) external pure returns (uint160 sqrtPriceNext, uint256 amountIn, uint256 amountOut, uint256 feeAmount) {
        return SwapMath.computeSwapStep(sqrtPriceCurrent, sqrtPriceTarget, liquidity, amountRemaining, feePips);
    }
}
