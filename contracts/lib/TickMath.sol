// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// @title Tick math
/// @notice The sqrt price (Q64.96) at a tick, equal to PancakeSwap V3's own TickMath to the wei (tested against it).
library TickMath {
    /// @dev The tick is outside the pool's range.
    error TickOutOfRange(int24 tick);

    int24 internal constant MIN_TICK = -887272;
    int24 internal constant MAX_TICK = 887272;

    /// @notice sqrt(1.0001^tick) * 2^96, rounded up.
    function sqrtPriceAtTick(int24 tick) internal pure returns (uint160) {
        uint256 abs = tick < 0 ? uint256(-int256(tick)) : uint256(int256(tick));
        if (abs > uint256(int256(MAX_TICK))) revert TickOutOfRange(tick);
        // 2^128 / sqrt(1.0001)^(2^i), rounded to nearest: the product of those whose bit is set in |tick| is
        // sqrt(1.0001)^-|tick| in Q128.
        uint256[20] memory inverse = [
            uint256(0xfffcb933bd6fad37aa2d162d1a594001),
            0xfff97272373d413259a46990580e213a,
            0xfff2e50f5f656932ef12357cf3c7fdcc,
            0xffe5caca7e10e4e61c3624eaa0941cd0,
            0xffcb9843d60f6159c9db58835c926644,
            0xff973b41fa98c081472e6896dfb254c0,
            0xff2ea16466c96a3843ec78b326b52861,
            0xfe5dee046a99a2a811c461f1969c3053,
            0xfcbe86c7900a88aedcffc83b479aa3a4,
            0xf987a7253ac413176f2b074cf7815e54,
            0xf3392b0822b70005940c7a398e4b70f3,
            0xe7159475a2c29b7443b29c7fa6e889d9,
            0xd097f3bdfd2022b8845ad8f792aa5825,
            0xa9f746462d870fdf8a65dc1f90e061e5,
            0x70d869a156d2a1b890bb3df62baf32f7,
            0x31be135f97d08fd981231505542fcfa6,
            0x9aa508b5b7a84e1c677de54f3e99bc9,
            0x5d6af8dedb81196699c329225ee604,
            0x2216e584f5fa1ea926041bedfe98,
            0x48a170391f7dc42444e8fa2
        ];
        uint256 ratio = abs & 1 != 0 ? inverse[0] : 1 << 128;
        unchecked {
            // Both factors are below 2^128, so the product fits.
            for (uint256 bit = 1; bit < 20; ++bit) {
                if (abs & (1 << bit) != 0) ratio = (ratio * inverse[bit]) >> 128;
            }
            if (tick > 0) ratio = type(uint256).max / ratio;
            // Q128 to Q96, rounding up.
            return uint160((ratio >> 32) + (ratio % (1 << 32) == 0 ? 0 : 1));
        }
    }
}
