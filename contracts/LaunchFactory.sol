// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IPancakeV3Factory} from "@pancakeswap/v3-core/contracts/interfaces/IPancakeV3Factory.sol";
import {IPancakeV3Pool} from "@pancakeswap/v3-core/contracts/interfaces/IPancakeV3Pool.sol";
import {IPancakeV3MintCallback} from "@pancakeswap/v3-core/contracts/interfaces/callback/IPancakeV3MintCallback.sol";
import {IPancakeV3SwapCallback} from "@pancakeswap/v3-core/contracts/interfaces/callback/IPancakeV3SwapCallback.sol";
import {ILaunchFactory} from "./interfaces/ILaunchFactory.sol";
import {LaunchToken} from "./LaunchToken.sol";
import {LiquidityMath} from "./lib/LiquidityMath.sol";
import {TickMath} from "./lib/TickMath.sol";
import {Payments} from "./lib/Payments.sol";
import {ServiceConfig} from "./ServiceConfig.sol";

interface IWBNBDeposit {
    function deposit() external payable;
    function withdraw(uint256 amount) external;
}

interface IERC20Balance {
    function balanceOf(address account) external view returns (uint256);
}

/// @title Launch factory
/// @notice See ILaunchFactory. The positions belong to this contract, which has no function that removes liquidity:
/// the only way anything leaves a position is `collect`, and it collects fees only.
contract LaunchFactory is ILaunchFactory, IPancakeV3MintCallback, IPancakeV3SwapCallback, Payments {
    uint256 internal constant BPS = 10_000;
    uint256 internal constant MAX_SUPPLY = 1e30;
    uint256 internal constant MAX_RANGES = 4;
    uint256 internal constant MAX_RECIPIENTS = 20;
    address internal constant DEAD = 0x000000000000000000000000000000000000dEaD;
    uint160 internal constant MIN_SQRT_PRICE_LIMIT = 4295128740;
    uint160 internal constant MAX_SQRT_PRICE_LIMIT = 1461446703485210103287273052203988822378723970341;

    /// @notice What the factory keeps of each launch.
    struct LaunchRecord {
        address creator;
        address royaltyTo;
        uint16 burnBps;
        address pool;
        address pair;
        Range[] ranges;
    }

    ServiceConfig public immutable config;
    IPancakeV3Factory public immutable pancakeFactory;
    address public immutable wbnb;

    mapping(address token => LaunchRecord) internal records;

    /// @dev The pool being worked on, and who pays a swap's pair currency: the only callbacks honoured.
    address private transient activePool;
    address private transient pairPayer;
    constructor(ServiceConfig config_, IPancakeV3Factory pancakeFactory_, address wbnb_) {
        config = config_;
        pancakeFactory = pancakeFactory_;
        wbnb = wbnb_;
    }

    /// @dev BNB comes in only from WBNB, when collected fees are unwrapped.
    receive() external payable {
        if (msg.sender != wbnb) revert WrongValue(msg.value, 0);
    }

    /// @inheritdoc ILaunchFactory
    function launch(LaunchParams calldata p) external payable override nonReentrant returns (address token) {
        if (config.launchesPaused()) revert LaunchesPaused();
        int24 spacing = _checkParams(p);
        uint256 launchFee = config.launchFeeWei();
        bool native = p.pair == wbnb;
        uint256 due = launchFee + (native ? p.firstBuy : 0);
        if (msg.value != due) revert WrongValue(msg.value, due);

        token = address(new LaunchToken{salt: _salt(msg.sender, p.salt)}(p.name, p.symbol, p.supply));
        bool tokenIs0 = token < p.pair;
        _checkRanges(p, spacing, tokenIs0);

        address pool = pancakeFactory.getPool(token, p.pair, p.fee);
        if (pool == address(0)) pool = pancakeFactory.createPool(token, p.pair, p.fee);
        activePool = pool;
        _open(pool, p.openingTick, tokenIs0, token);
        _laySupply(pool, p.ranges, token);

        LaunchRecord storage record = records[token];
        record.creator = msg.sender;
        record.royaltyTo = p.royaltyTo;
        record.burnBps = p.burnBps;
        record.pool = pool;
        record.pair = p.pair;
        for (uint256 i = 0; i < p.ranges.length; ++i) record.ranges.push(p.ranges[i]);

        if (p.firstBuy > 0) _firstBuy(p, pool, token, tokenIs0, native);
        activePool = address(0);
        if (launchFee > 0) _sendBnb(config.feeRecipient(), launchFee);
        emit Launched(
            token,
            msg.sender,
            pool,
            p.pair,
            p.fee,
            p.supply,
            p.openingTick,
            p.salt,
            p.name,
            p.symbol,
            p.metadataURI,
            p.royaltyTo,
            p.burnBps,
            p.ranges
        );
    }

    /// @inheritdoc ILaunchFactory
    function collect(address token) external override nonReentrant {
        LaunchRecord storage record = records[token];
        address pool = record.pool;
        if (pool == address(0)) revert UnknownToken(token);
        bool tokenIs0 = token < record.pair;
        uint256 tokenFees;
        uint256 pairFees;
        for (uint256 i = 0; i < record.ranges.length; ++i) {
            Range memory range = record.ranges[i];
            // A zero burn settles the position's fees; collect then takes them, and only them.
            IPancakeV3Pool(pool).burn(range.tickLower, range.tickUpper, 0);
            (uint128 amount0, uint128 amount1) = IPancakeV3Pool(pool).collect(
                address(this), range.tickLower, range.tickUpper, type(uint128).max, type(uint128).max
            );
            (uint256 tokenPart, uint256 pairPart) = tokenIs0 ? (amount0, amount1) : (amount1, amount0);
            tokenFees += tokenPart;
            pairFees += pairPart;
        }
        address recipient = record.royaltyTo == address(0) ? record.creator : record.royaltyTo;
        uint256 burnBps = record.burnBps;
        uint256 pairToBurn = (pairFees * burnBps) / BPS;
        uint256 tokensToBurn = (tokenFees * burnBps) / BPS;
        uint256 pairToRoyalty = pairFees - pairToBurn;
        uint256 tokenToRoyalty = tokenFees - tokensToBurn;
        if (tokensToBurn > 0) _safeTransfer(token, DEAD, tokensToBurn);
        if (pairToBurn > 0) {
            // Buy the token back with the burn share of the pair fees, straight to the dead address.
            activePool = pool;
            pairPayer = address(this);
            (int256 amount0, int256 amount1) = IPancakeV3Pool(pool).swap(
                DEAD,
                !tokenIs0,
                int256(pairToBurn),
                tokenIs0 ? MAX_SQRT_PRICE_LIMIT : MIN_SQRT_PRICE_LIMIT,
                abi.encode(record.pair, record.pair)
            );
            activePool = address(0);
            tokensToBurn += uint256(-(tokenIs0 ? amount0 : amount1));
            // Whatever the pool could not take stays royalty.
            pairToRoyalty += pairToBurn - uint256(tokenIs0 ? amount1 : amount0);
        }
        if (tokenToRoyalty > 0) _safeTransfer(token, recipient, tokenToRoyalty);
        if (pairToRoyalty > 0) {
            if (record.pair == wbnb) {
                IWBNBDeposit(wbnb).withdraw(pairToRoyalty);
                _sendBnb(recipient, pairToRoyalty);
            } else {
                _safeTransfer(record.pair, recipient, pairToRoyalty);
            }
        }
        emit Collected(token, recipient, pairFees, tokenFees, pairToRoyalty, tokenToRoyalty, tokensToBurn);
    }

    /// @inheritdoc ILaunchFactory
    function tokenAddress(address creator, bytes32 salt, string calldata name, string calldata symbol, uint256 supply)
        external
        view
        override
        returns (address)
    {
        bytes32 initCode = keccak256(abi.encodePacked(type(LaunchToken).creationCode, abi.encode(name, symbol, supply)));
        return address(
            uint160(uint256(keccak256(abi.encodePacked(hex"ff", address(this), _salt(creator, salt), initCode))))
        );
    }

    /// @notice A launched token's creator, royalty settings, pool, pair and ranges.
    function launchOf(address token) external view returns (LaunchRecord memory) {
        return records[token];
    }

    /// @notice Pays the pool the tokens a position needs, from the launch's supply.
    function pancakeV3MintCallback(uint256 amount0Owed, uint256 amount1Owed, bytes calldata data) external override {
        if (msg.sender != activePool || msg.sender == address(0)) revert NotPool();
        address token = abi.decode(data, (address));
        // A single-sided position owes only the token: the other amount is zero by construction.
        _safeTransfer(token, msg.sender, amount0Owed + amount1Owed);
    }

    /// @notice Pays the pool for a swap: the token from the supply (moving a pre-priced pool), or the pair currency
    /// for the first buy and the buy-back.
    function pancakeV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata data) external override {
        if (msg.sender != activePool || msg.sender == address(0)) revert NotPool();
        (address tokenIn, address pair) = abi.decode(data, (address, address));
        uint256 owed = uint256(amount0Delta > 0 ? amount0Delta : amount1Delta);
        if (amount0Delta <= 0 && amount1Delta <= 0) return;
        if (tokenIn != pair) {
            _safeTransfer(tokenIn, msg.sender, owed);
        } else if (pairPayer == address(this)) {
            if (pair == wbnb && IERC20Balance(wbnb).balanceOf(address(this)) < owed) {
                IWBNBDeposit(wbnb).deposit{value: owed}();
            }
            _safeTransfer(pair, msg.sender, owed);
        } else {
            _safeTransferFrom(pair, pairPayer, msg.sender, owed);
        }
    }

    /// @dev Checks everything that does not need the token's address; returns the tier's tick spacing.
    function _checkParams(LaunchParams calldata p) internal view returns (int24 spacing) {
        if (p.supply == 0 || p.supply > MAX_SUPPLY) revert InvalidSupply();
        spacing = pancakeFactory.feeAmountTickSpacing(p.fee);
        if (spacing == 0) revert InvalidFeeTier(p.fee);
        if (p.openingTick % spacing != 0 || p.openingTick <= TickMath.MIN_TICK || p.openingTick >= TickMath.MAX_TICK) {
            revert InvalidTick(p.openingTick);
        }
        uint16 burn = p.burnBps;
        if (!(burn == 0 || burn == BPS || (burn >= 100 && burn < BPS))) revert InvalidBurn(burn);
        if (p.royaltyTo != address(0) && burn > 0) revert ConflictingRoyalty();
        uint256 recipients = p.firstBuyTo.length;
        if (recipients > MAX_RECIPIENTS || (recipients > 0 && p.firstBuy == 0)) revert InvalidSplit();
        if (recipients > 0) {
            uint256 total;
            for (uint256 i = 0; i < recipients; ++i) {
                if (p.firstBuyTo[i].wallet == address(0) || p.firstBuyTo[i].bps == 0) revert InvalidSplit();
                total += p.firstBuyTo[i].bps;
                for (uint256 j = 0; j < i; ++j) {
                    if (p.firstBuyTo[j].wallet == p.firstBuyTo[i].wallet) revert InvalidSplit();
                }
            }
            if (total != BPS) revert InvalidSplit();
        }
    }

    /// @dev Ranges must sit wholly on the token's side of the opening tick, so each holds the token only.
    function _checkRanges(LaunchParams calldata p, int24 spacing, bool tokenIs0) internal pure {
        uint256 count = p.ranges.length;
        if (count == 0 || count > MAX_RANGES) revert InvalidRanges();
        int24 top = (TickMath.MAX_TICK / spacing) * spacing;
        uint256 total;
        for (uint256 i = 0; i < count; ++i) {
            Range calldata r = p.ranges[i];
            if (r.tickLower >= r.tickUpper || r.tickLower % spacing != 0 || r.tickUpper % spacing != 0) {
                revert InvalidRanges();
            }
            if (r.tickLower < -top || r.tickUpper > top || r.bps == 0) revert InvalidRanges();
            if (tokenIs0 ? r.tickLower < p.openingTick : r.tickUpper > p.openingTick) revert InvalidRanges();
            total += r.bps;
        }
        Range calldata last = p.ranges[count - 1];
        if (total != BPS || (tokenIs0 ? last.tickUpper != top : last.tickLower != -top)) revert InvalidRanges();
    }

    /// @dev Brings the pool to the opening price. A fresh pool is initialised there. A pool someone created and
    /// priced first holds no token liquidity (the token did not exist), so moving its price costs nothing but what
    /// liquidity of the pair they placed in the way: that is bought with supply at above-launch prices, at their
    /// loss, and its pair proceeds go to the creator.
    function _open(address pool, int24 openingTick, bool tokenIs0, address token) internal {
        uint160 target = TickMath.sqrtPriceAtTick(openingTick);
        (uint160 current,,,,,,) = IPancakeV3Pool(pool).slot0();
        if (current == 0) {
            IPancakeV3Pool(pool).initialize(target);
            return;
        }
        if (current == target) return;
        bool zeroForOne = current > target;
        address pair = tokenIs0 ? IPancakeV3Pool(pool).token1() : IPancakeV3Pool(pool).token0();
        // Only the token can be owed when the price has to move towards it; the pair never, as no token liquidity
        // can exist to be bought.
        address tokenIn = zeroForOne == tokenIs0 ? token : pair;
        (int256 amount0, int256 amount1) = IPancakeV3Pool(pool).swap(
            address(this), zeroForOne, type(int256).max, target, abi.encode(tokenIn, tokenIn == pair ? pair : address(0))
        );
        (uint160 reached,,,,,,) = IPancakeV3Pool(pool).slot0();
        if (reached != target) revert PriceNotReached(reached, target);
        uint256 pairOut = uint256(-(tokenIs0 ? amount1 : amount0));
        if (pairOut > 0) _safeTransfer(pair, msg.sender, pairOut);
    }

    /// @dev Mints each range's share of what supply is left; the last range takes all that remains, dust included,
    /// and what cannot buy one more unit of liquidity is burned.
    function _laySupply(address pool, Range[] calldata ranges, address token) internal {
        uint256 supply = IERC20Balance(token).balanceOf(address(this));
        bool tokenIs0 = token == IPancakeV3Pool(pool).token0();
        bytes memory data = abi.encode(token);
        for (uint256 i = 0; i < ranges.length; ++i) {
            bool last = i == ranges.length - 1;
            uint256 amount = last ? IERC20Balance(token).balanceOf(address(this)) : (supply * ranges[i].bps) / BPS;
            uint160 sqrtA = TickMath.sqrtPriceAtTick(ranges[i].tickLower);
            uint160 sqrtB = TickMath.sqrtPriceAtTick(ranges[i].tickUpper);
            uint128 liquidity =
                tokenIs0 ? LiquidityMath.forAmount0(sqrtA, sqrtB, amount) : LiquidityMath.forAmount1(sqrtA, sqrtB, amount);
            if (liquidity > 0) IPancakeV3Pool(pool).mint(address(this), ranges[i].tickLower, ranges[i].tickUpper, liquidity, data);
        }
        uint256 residue = IERC20Balance(token).balanceOf(address(this));
        if (residue > 0) _safeTransfer(token, DEAD, residue);
    }

    /// @dev The first buy: the pair paid in BNB (wrapped here) or pulled from the creator, the tokens split.
    function _firstBuy(LaunchParams calldata p, address pool, address token, bool tokenIs0, bool native) internal {
        pairPayer = native ? address(this) : msg.sender;
        (int256 amount0, int256 amount1) = IPancakeV3Pool(pool).swap(
            address(this),
            !tokenIs0,
            int256(p.firstBuy),
            tokenIs0 ? MAX_SQRT_PRICE_LIMIT : MIN_SQRT_PRICE_LIMIT,
            abi.encode(p.pair, p.pair)
        );
        uint256 spent = uint256(tokenIs0 ? amount1 : amount0);
        uint256 tokens = uint256(-(tokenIs0 ? amount0 : amount1));
        if (spent != p.firstBuy) revert FirstBuyNotFilled(spent, p.firstBuy);
        if (tokens < p.minTokens) revert FirstBuyTooSmall(tokens, p.minTokens);
        uint256 recipients = p.firstBuyTo.length;
        if (recipients == 0) {
            _safeTransfer(token, msg.sender, tokens);
        } else {
            uint256 left = tokens;
            for (uint256 i = 0; i < recipients; ++i) {
                uint256 share = i == recipients - 1 ? left : (tokens * p.firstBuyTo[i].bps) / BPS;
                left -= share;
                _safeTransfer(token, p.firstBuyTo[i].wallet, share);
            }
        }
        emit FirstBuy(token, spent, tokens);
    }

    function _salt(address creator, bytes32 salt) internal pure returns (bytes32) {
        return keccak256(abi.encode(creator, salt));
    }
}
