// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {TickMath} from "../lib/TickMath.sol";
import {LiquidityMath} from "../lib/LiquidityMath.sol";

/// @title Our Solidity math, exposed for tests against the pool's own libraries.
contract OurMathHarness {
    function sqrtPriceAtTick(int24 tick) external pure returns (uint160) {
        return TickMath.sqrtPriceAtTick(tick);
    }

    function liquidityForAmount0(uint160 sqrtA, uint160 sqrtB, uint256 amount0) external pure returns (uint128) {
        return LiquidityMath.forAmount0(sqrtA, sqrtB, amount0);
    }

    function liquidityForAmount1(uint160 sqrtA, uint160 sqrtB, uint256 amount1) external pure returns (uint128) {
        return LiquidityMath.forAmount1(sqrtA, sqrtB, amount1);
    }
}
