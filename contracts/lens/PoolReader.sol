// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IPancakeV3Pool} from "@pancakeswap/v3-core/contracts/interfaces/IPancakeV3Pool.sol";

/// @title PoolReader
/// @notice Reads what the service's swap engine needs of a PancakeSwap V3 pool (price, liquidity, fee, spacing and
/// every initialized tick) in one call. Never deployed: the service sends its creation code with an eth_call (a
/// "deployless" read), so a pool is read in one request instead of one per bitmap word and per tick.
contract PoolReader {
    /// @notice A pool's state as the swap engine reads it; the three tick arrays are parallel, ticks ascending.
    struct PoolSnapshot {
        uint160 sqrtPriceX96;
        int24 tick;
        uint128 liquidity;
        uint24 fee;
        int24 tickSpacing;
        int24[] ticks;
        uint128[] liquidityGross;
        int128[] liquidityNet;
    }

    int24 private constant MIN_TICK = -887272;
    int24 private constant MAX_TICK = 887272;

    /// @notice The pool's state at the block the call runs at.
    /// @dev Walks the whole tick bitmap: cheap at wide spacings (35 words at 200), about 7,000 words at spacing 1.
    function read(IPancakeV3Pool pool) external view returns (PoolSnapshot memory s) {
        (s.sqrtPriceX96, s.tick,,,,,) = pool.slot0();
        s.liquidity = pool.liquidity();
        s.fee = pool.fee();
        s.tickSpacing = pool.tickSpacing();
        int24 spacing = s.tickSpacing;
        int16 first = _word(_ceilDiv(MIN_TICK, spacing));
        int16 last = _word(MAX_TICK / spacing);
        uint256[] memory words = new uint256[](uint256(int256(last) - int256(first) + 1));
        uint256 count;
        for (int16 w = first; w <= last; w++) {
            uint256 bits = pool.tickBitmap(w);
            words[uint256(int256(w) - int256(first))] = bits;
            for (; bits != 0; bits &= bits - 1) count++;
        }
        s.ticks = new int24[](count);
        s.liquidityGross = new uint128[](count);
        s.liquidityNet = new int128[](count);
        uint256 n;
        for (uint256 i; i < words.length; i++) {
            uint256 bits = words[i];
            for (uint256 bit; bits != 0; bit++) {
                if (bits & (1 << bit) == 0) continue;
                bits &= ~(1 << bit);
                int24 tick = int24((int256(first) + int256(i)) * 256 + int256(bit)) * spacing;
                (uint128 gross, int128 net,,,,,,) = pool.ticks(tick);
                s.ticks[n] = tick;
                s.liquidityGross[n] = gross;
                s.liquidityNet[n] = net;
                n++;
            }
        }
    }

    /// @dev The bitmap word of a compressed tick (tick / spacing), rounding toward negative infinity as the pool does.
    function _word(int24 compressed) private pure returns (int16) {
        return int16(compressed >> 8);
    }

    /// @dev a / b rounded toward positive infinity, for b > 0.
    function _ceilDiv(int24 a, int24 b) private pure returns (int24) {
        int24 q = a / b;
        return (a % b != 0 && a > 0) ? q + 1 : q;
    }
}
