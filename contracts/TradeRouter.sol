// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IPancakeV3Pool} from "@pancakeswap/v3-core/contracts/interfaces/IPancakeV3Pool.sol";
import {IPancakeV3SwapCallback} from "@pancakeswap/v3-core/contracts/interfaces/callback/IPancakeV3SwapCallback.sol";
import {IAllowanceTransfer} from "@uniswap/v4-periphery/lib/permit2/src/interfaces/IAllowanceTransfer.sol";
import {ITradeRouter} from "./interfaces/ITradeRouter.sol";
import {IWBNB, Payments} from "./lib/Payments.sol";
import {ServiceConfig} from "./ServiceConfig.sol";

/// @title Trade router
/// @notice See ITradeRouter.
/// @dev Fee rounding is always in the service's favour and never costs the trader more than one wei against the exact
/// rate: exact in, fee = ceil(gross * bps / 10000); exact out, gross = ceil(net * 10000 / (10000 - bps)). The
/// referrer's cut, floor(gross * referrerBps / 10000), is paid out of the fee.
contract TradeRouter is ITradeRouter, IPancakeV3SwapCallback, Payments {
    uint256 internal constant BPS = 10_000;
    /// @dev TickMath's bounds plus and minus one: a swap may run to the end of the pool's liquidity in either way.
    uint160 internal constant MIN_SQRT_PRICE_LIMIT = 4295128740;
    uint160 internal constant MAX_SQRT_PRICE_LIMIT = 1461446703485210103287273052203988822378723970341;
    /// @dev PancakeSwap V3's pool init-code hash: pool addresses are derived, never taken from callers.
    bytes32 internal constant POOL_INIT_CODE_HASH = 0x6ce8eb472fa82df5469c6ab6d485f17c3ad13c8cd7af59b3d4a8026c5ce0f7e2;

    ServiceConfig public immutable config;
    address public immutable poolDeployer;
    address public immutable wbnb;
    IAllowanceTransfer public immutable permit2;

    /// @inheritdoc ITradeRouter
    mapping(address wallet => address referrer) public override referrerOf;

    /// @dev The live fee rates of one trade, read once from the config.
    struct Rates {
        uint256 siteBps;
        uint256 referrerBps;
        address recipient;
    }

    /// @dev The pool of the trade under way: the only address whose swap callback is honoured.
    address private transient activePool;
    constructor(ServiceConfig config_, address poolDeployer_, address wbnb_, IAllowanceTransfer permit2_) {
        config = config_;
        poolDeployer = poolDeployer_;
        wbnb = wbnb_;
        permit2 = permit2_;
    }

    /// @dev BNB comes in only from WBNB, when the router unwraps a sale's proceeds.
    receive() external payable {
        if (msg.sender != wbnb) revert WrongValue(msg.value, 0);
    }

    /// @inheritdoc ITradeRouter
    function buyExactIn(TradeParams calldata trade) external payable override nonReentrant returns (uint256 tokensOut) {
        bool native = _start(trade, trade.amount);
        Rates memory rates = _rates();
        uint256 fee = _feeOn(trade.amount, rates.siteBps);
        uint256 net = trade.amount - fee;
        if (net == 0) revert AmountTooSmall();
        uint256 paid;
        (paid, tokensOut) = _swap(trade, true, net, true, msg.sender, native);
        if (paid != net) revert PoolTooThin();
        if (tokensOut == 0) revert AmountTooSmall();
        if (tokensOut < trade.limit) revert LimitNotMet(tokensOut, trade.limit);
        uint256 cut = _payFees(trade, trade.amount, fee, rates, native, native ? address(this) : msg.sender);
        _emitTrade(trade, true, trade.amount, tokensOut, fee, cut);
    }

    /// @inheritdoc ITradeRouter
    function buyExactOut(TradeParams calldata trade) external payable override nonReentrant returns (uint256 pairIn) {
        bool native = _start(trade, msg.value);
        Rates memory rates = _rates();
        (uint256 net, uint256 received) = _swap(trade, true, trade.amount, false, msg.sender, native);
        if (received != trade.amount) revert PoolTooThin();
        pairIn = _grossFor(net, rates.siteBps);
        if (pairIn > trade.limit) revert LimitNotMet(pairIn, trade.limit);
        if (native && msg.value < pairIn) revert WrongValue(msg.value, pairIn);
        uint256 fee = pairIn - net;
        uint256 cut = _payFees(trade, pairIn, fee, rates, native, native ? address(this) : msg.sender);
        if (native) _sendBnb(msg.sender, msg.value - pairIn);
        _emitTrade(trade, true, pairIn, received, fee, cut);
    }

    /// @inheritdoc ITradeRouter
    function sellExactIn(TradeParams calldata trade) external override nonReentrant returns (uint256 pairOut) {
        bool native = _start(trade, 0);
        Rates memory rates = _rates();
        (uint256 paid, uint256 gross) = _swap(trade, false, trade.amount, true, address(this), false);
        if (paid != trade.amount) revert PoolTooThin();
        uint256 fee = _feeOn(gross, rates.siteBps);
        if (gross <= fee) revert AmountTooSmall();
        pairOut = gross - fee;
        if (pairOut < trade.limit) revert LimitNotMet(pairOut, trade.limit);
        if (native) IWBNB(wbnb).withdraw(gross);
        _send(trade.pair, native, address(this), msg.sender, pairOut);
        uint256 cut = _payFees(trade, gross, fee, rates, native, address(this));
        _emitTrade(trade, false, gross, trade.amount, fee, cut);
    }

    /// @inheritdoc ITradeRouter
    function sellExactOut(TradeParams calldata trade) external override nonReentrant returns (uint256 tokensIn) {
        bool native = _start(trade, 0);
        Rates memory rates = _rates();
        uint256 gross = _grossFor(trade.amount, rates.siteBps);
        uint256 received;
        (tokensIn, received) = _swap(trade, false, gross, false, address(this), false);
        if (received != gross) revert PoolTooThin();
        if (tokensIn > trade.limit) revert LimitNotMet(tokensIn, trade.limit);
        if (native) IWBNB(wbnb).withdraw(gross);
        _send(trade.pair, native, address(this), msg.sender, trade.amount);
        uint256 fee = gross - trade.amount;
        _emitTrade(trade, false, gross, tokensIn, fee, _payFees(trade, gross, fee, rates, native, address(this)));
    }

    /// @notice Pays the pool what the swap owes it: wrapped from the trade's BNB, or through Permit2 from the trader.
    function pancakeV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata data) external override {
        if (msg.sender != activePool || msg.sender == address(0)) revert NotPool();
        (address from, address tokenIn, bool native) = abi.decode(data, (address, address, bool));
        uint256 owed = uint256(amount0Delta > 0 ? amount0Delta : amount1Delta);
        if (native) {
            if (owed > address(this).balance) revert WrongValue(address(this).balance, owed);
            IWBNB(wbnb).deposit{value: owed}();
            _safeTransfer(wbnb, msg.sender, owed);
        } else {
            _pull(from, msg.sender, owed, tokenIn);
        }
    }

    function _emitTrade(
        TradeParams calldata trade,
        bool isBuy,
        uint256 pairAmount,
        uint256 tokenAmount,
        uint256 fee,
        uint256 cut
    ) internal {
        emit Trade(msg.sender, trade.token, trade.referrer, trade.pair, isBuy, pairAmount, tokenAmount, fee, cut);
    }

    /// @dev Checks common to every trade, binds the referrer, and tells whether the pair is BNB paid natively.
    function _start(TradeParams calldata trade, uint256 bnbDue) internal returns (bool native) {
        if (block.timestamp > trade.deadline) revert Expired(trade.deadline, block.timestamp);
        if (trade.amount == 0) revert AmountTooSmall();
        if (trade.amount > uint256(type(int256).max)) revert PoolTooThin();
        native = trade.pair == wbnb;
        if (native ? msg.value != bnbDue : msg.value != 0) revert WrongValue(msg.value, native ? bnbDue : 0);
        address referrer = trade.referrer;
        if (referrer != address(0)) {
            if (referrer == msg.sender) revert SelfReferral();
            address bound = referrerOf[msg.sender];
            if (bound == address(0)) {
                referrerOf[msg.sender] = referrer;
                emit Bound(msg.sender, referrer);
            } else if (bound != referrer) {
                revert AlreadyBound(bound);
            }
        }
    }

    function _rates() internal view returns (Rates memory) {
        (uint16 site, uint16 cut,, address feeRecipient) = config.fees();
        return Rates(site, cut, feeRecipient);
    }

    /// @dev Swaps `amount` (exact in, or exact out when `exactIn` is false) and returns what went in and came out.
    function _swap(TradeParams calldata trade, bool isBuy, uint256 amount, bool exactIn, address recipient, bool native)
        internal
        returns (uint256 amountIn, uint256 amountOut)
    {
        address pool = _pool(trade.token, trade.pair, trade.fee);
        if (pool.code.length == 0) revert NoPool(pool);
        if (amount > uint256(type(int256).max)) revert PoolTooThin();
        (address tokenIn, address tokenOut) = isBuy ? (trade.pair, trade.token) : (trade.token, trade.pair);
        bool zeroForOne = tokenIn < tokenOut;
        activePool = pool;
        (int256 amount0, int256 amount1) = IPancakeV3Pool(pool).swap(
            recipient,
            zeroForOne,
            exactIn ? int256(amount) : -int256(amount),
            zeroForOne ? MIN_SQRT_PRICE_LIMIT : MAX_SQRT_PRICE_LIMIT,
            abi.encode(msg.sender, tokenIn, native)
        );
        activePool = address(0);
        (int256 deltaIn, int256 deltaOut) = zeroForOne ? (amount0, amount1) : (amount1, amount0);
        amountIn = uint256(deltaIn);
        amountOut = uint256(-deltaOut);
    }

    /// @dev Pays the fee, less the referrer's cut, to the fee recipient, and the cut to the referrer.
    function _payFees(
        TradeParams calldata trade,
        uint256 gross,
        uint256 fee,
        Rates memory rates,
        bool native,
        address from
    ) internal returns (uint256 cut) {
        if (trade.referrer != address(0)) cut = (gross * rates.referrerBps) / BPS;
        if (cut > fee) cut = fee;
        _send(trade.pair, native, from, rates.recipient, fee - cut);
        _send(trade.pair, native, from, trade.referrer, cut);
    }

    function _send(address token, bool native, address from, address to, uint256 amount) internal {
        if (amount == 0) return;
        if (native) _payNative(wbnb, to, amount);
        else if (from == address(this)) _safeTransfer(token, to, amount);
        else _pull(from, to, amount, token);
    }

    function _pull(address from, address to, uint256 amount, address token) internal {
        if (amount > type(uint160).max) revert PoolTooThin();
        permit2.transferFrom(from, to, uint160(amount), token);
    }

    function _pool(address a, address b, uint24 fee) internal view returns (address) {
        (address token0, address token1) = a < b ? (a, b) : (b, a);
        bytes32 salt = keccak256(abi.encode(token0, token1, fee));
        return address(uint160(uint256(keccak256(abi.encodePacked(hex"ff", poolDeployer, salt, POOL_INIT_CODE_HASH)))));
    }

    function _feeOn(uint256 gross, uint256 bps) internal pure returns (uint256) {
        return (gross * bps + BPS - 1) / BPS;
    }

    function _grossFor(uint256 net, uint256 bps) internal pure returns (uint256) {
        return (net * BPS + (BPS - bps) - 1) / (BPS - bps);
    }
}
