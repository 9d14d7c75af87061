// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// @title Liquidity for a single-sided amount
/// @notice The most liquidity that `amount` of one token can fund over a range the price is outside of, rounded down,
/// so the pool never asks for more than the amount.
library LiquidityMath {
    /// @dev The liquidity does not fit the pool's uint128.
    error LiquidityOverflow();

    uint256 internal constant Q96 = 1 << 96;

    /// @notice Liquidity of `amount0` of token0 over [sqrtA, sqrtB] (a range above the price): a·√A·√B / (√B − √A).
    function forAmount0(uint160 sqrtA, uint160 sqrtB, uint256 amount0) internal pure returns (uint128) {
        (uint256 low, uint256 high) = sqrtA < sqrtB ? (uint256(sqrtA), uint256(sqrtB)) : (uint256(sqrtB), uint256(sqrtA));
        // a·√B/2^96 first: at the lowest prices √A·√B/2^96 alone would round to nothing.
        return _toUint128(mulDiv(mulDiv(amount0, high, Q96), low, high - low));
    }

    /// @notice Liquidity of `amount1` of token1 over [sqrtA, sqrtB] (a range below the price): a / (√B − √A).
    function forAmount1(uint160 sqrtA, uint160 sqrtB, uint256 amount1) internal pure returns (uint128) {
        (uint256 low, uint256 high) = sqrtA < sqrtB ? (uint256(sqrtA), uint256(sqrtB)) : (uint256(sqrtB), uint256(sqrtA));
        return _toUint128(mulDiv(amount1, Q96, high - low));
    }

    /// @notice floor(a · b / d) with a 512-bit intermediate product, so it is exact whenever the result fits.
    function mulDiv(uint256 a, uint256 b, uint256 d) internal pure returns (uint256 result) {
        uint256 low;
        uint256 high;
        assembly {
            // The 512-bit product [high low], from the 256-bit product and the product modulo 2^256 - 1.
            let mm := mulmod(a, b, not(0))
            low := mul(a, b)
            high := sub(sub(mm, low), lt(mm, low))
        }
        if (high == 0) return low / d;
        if (d <= high) revert LiquidityOverflow();
        assembly {
            // Make the product divisible by d: subtract the remainder.
            let remainder := mulmod(a, b, d)
            high := sub(high, gt(remainder, low))
            low := sub(low, remainder)
            // Divide out the largest power of two dividing d, and fold the high word into the low one.
            let twos := and(d, sub(0, d))
            d := div(d, twos)
            low := div(low, twos)
            twos := add(div(sub(0, twos), twos), 1)
            low := or(low, mul(high, twos))
            // d is odd now: its inverse modulo 2^256 by Newton's iteration (each step doubles the correct bits).
            let inv := xor(mul(3, d), 2)
            inv := mul(inv, sub(2, mul(d, inv)))
            inv := mul(inv, sub(2, mul(d, inv)))
            inv := mul(inv, sub(2, mul(d, inv)))
            inv := mul(inv, sub(2, mul(d, inv)))
            inv := mul(inv, sub(2, mul(d, inv)))
            inv := mul(inv, sub(2, mul(d, inv)))
            result := mul(low, inv)
        }
    }

    function _toUint128(uint256 value) private pure returns (uint128) {
        if (value > type(uint128).max) revert LiquidityOverflow();
        return uint128(value);
    }
}
