// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IPayments} from "./IPayments.sol";

/// @title Trade router
/// @notice Buys and sells launched tokens against their PancakeSwap V3 pool, exact in or exact out, in BNB (paid and
/// received natively, wrapped inside) or any BEP-20 pair. The payer's tokens are pulled through Permit2. The site fee
/// is taken on the trade's pair-currency amount and the named referrer's instant cut is paid out of it, so the trader
/// pays the same with or without a referrer. A wallet's first trade with a referrer binds it to that referrer for ever:
/// its later trades may name that referrer or none, and any other reverts `AlreadyBound`. A fee recipient or referrer
/// that refuses BNB is paid in WBNB instead, so none can stop a trade.
interface ITradeRouter is IPayments {
    /// @notice One trade. Which side `amount` and `limit` stand for depends on the function called.
    /// @param token the launched token
    /// @param pair the pair currency of its pool (WBNB for a BNB pool, traded as native BNB)
    /// @param fee the pool's fee tier
    /// @param amount the exact amount: what is paid for exact in, what is received for exact out
    /// @param limit the least received (exact in) or the most paid (exact out); the trade reverts rather than fill worse
    /// @param referrer who gets the instant cut, or the zero address for nobody
    /// @param deadline the last timestamp at which the trade may execute
    struct TradeParams {
        address token;
        address pair;
        uint24 fee;
        uint256 amount;
        uint256 limit;
        address referrer;
        uint256 deadline;
    }

    /// @dev No pool exists for the token, pair and fee tier.
    error NoPool(address pool);
    /// @dev The trade's deadline has passed.
    error Expired(uint256 deadline, uint256 nowTimestamp);
    /// @dev The trade would receive less than its floor, or pay more than its ceiling.
    error LimitNotMet(uint256 amount, uint256 limit);
    /// @dev The pool could not fill the whole size.
    error PoolTooThin();
    /// @dev Nothing would be left after the site fee, or the pool would give nothing.
    error AmountTooSmall();
    /// @dev A wallet cannot refer itself.
    error SelfReferral();
    /// @dev The wallet is bound for ever to another referrer; name that one, or none.
    error AlreadyBound(address referrer);
    /// @dev BNB was sent where none is due, or not the amount due.
    error WrongValue(uint256 sent, uint256 due);
    /// @dev A swap callback came from an address that is not the pool being traded.
    error NotPool();

    /// @notice One per trade, with every amount: `pairAmount` is the gross pair-currency amount (fee included) the
    /// trader paid (buy) or the pool gave (sell); `siteFee` is the whole fee, `referrerCut` the part of it paid to
    /// `referrer`.
    event Trade(
        address indexed wallet,
        address indexed token,
        address indexed referrer,
        address pair,
        bool isBuy,
        uint256 pairAmount,
        uint256 tokenAmount,
        uint256 siteFee,
        uint256 referrerCut
    );

    /// @notice A wallet's first trade with a referrer bound it to that referrer, for ever.
    event Bound(address indexed wallet, address indexed referrer);

    /// @notice Pays exactly `amount` of the pair (site fee included) for as many tokens as it buys, at least `limit`.
    function buyExactIn(TradeParams calldata trade) external payable returns (uint256 tokensOut);

    /// @notice Buys exactly `amount` tokens, paying at most `limit` of the pair (site fee included); unused BNB is
    /// refunded.
    function buyExactOut(TradeParams calldata trade) external payable returns (uint256 pairIn);

    /// @notice Sells exactly `amount` tokens for at least `limit` of the pair after the site fee.
    function sellExactIn(TradeParams calldata trade) external returns (uint256 pairOut);

    /// @notice Receives exactly `amount` of the pair after the site fee, selling at most `limit` tokens.
    function sellExactOut(TradeParams calldata trade) external returns (uint256 tokensIn);

    /// @notice The referrer a wallet is bound to, or the zero address.
    function referrerOf(address wallet) external view returns (address);
}
