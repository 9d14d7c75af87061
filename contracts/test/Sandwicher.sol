// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IPancakeV3Pool} from "@pancakeswap/v3-core/contracts/interfaces/IPancakeV3Pool.sol";
import {IPancakeV3SwapCallback} from "@pancakeswap/v3-core/contracts/interfaces/callback/IPancakeV3SwapCallback.sol";

interface ISandwichToken {
    function balanceOf(address account) external view returns (uint256);
    function transfer(address to, uint256 amount) external returns (bool);
}

interface ICollectTarget {
    function collect(address token) external;
}

/// @title Buy-back sandwich (test only)
/// @notice Plays an attacker's best single-transaction move against `collect`: buy on the pool itself (no router,
/// no site fee), let the factory's buy-back push the price further, and sell everything back, all in one
/// transaction. It holds the pair currency it attacks with; the test reads what it ends with.
contract Sandwicher is IPancakeV3SwapCallback {
    uint160 internal constant MIN_SQRT_PRICE_LIMIT = 4295128740;
    uint160 internal constant MAX_SQRT_PRICE_LIMIT = 1461446703485210103287273052203988822378723970341;

    address private activePool;

    function attack(address pool, address factory, address token, address pair, uint256 push) external {
        bool tokenIs0 = token < pair;
        activePool = pool;
        if (push > 0) {
            IPancakeV3Pool(pool).swap(
                address(this), !tokenIs0, int256(push), tokenIs0 ? MAX_SQRT_PRICE_LIMIT : MIN_SQRT_PRICE_LIMIT, ""
            );
        }
        ICollectTarget(factory).collect(token);
        uint256 tokens = ISandwichToken(token).balanceOf(address(this));
        if (tokens > 0) {
            IPancakeV3Pool(pool).swap(
                address(this), tokenIs0, int256(tokens), tokenIs0 ? MIN_SQRT_PRICE_LIMIT : MAX_SQRT_PRICE_LIMIT, ""
            );
        }
        activePool = address(0);
    }

    function pancakeV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata) external override {
        require(msg.sender == activePool, "not the pool");
        if (amount0Delta > 0) ISandwichToken(IPancakeV3Pool(msg.sender).token0()).transfer(msg.sender, uint256(amount0Delta));
        if (amount1Delta > 0) ISandwichToken(IPancakeV3Pool(msg.sender).token1()).transfer(msg.sender, uint256(amount1Delta));
    }
}
