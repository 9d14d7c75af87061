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
import {IWBNB, Payments} from "./lib/Payments.sol";
import {ServiceConfig} from "./ServiceConfig.sol";

interface IERC20Balance {
    function balanceOf(address account) external view returns (uint256);
}

/// @title Launch factory
/// @notice See ILaunchFactory. The positions belong to this contract, which has no function that removes liquidity:
/// the only way anything leaves a position is `collect`, and it collects fees only. The only pair currency it holds
/// between calls is a buy-back that waits for a fair price (`buybackPending`).
contract LaunchFactory is ILaunchFactory, IPancakeV3MintCallback, IPancakeV3SwapCallback, Payments {
    uint256 internal constant BPS = 10_000;
    uint256 internal constant MAX_SUPPLY = 1e30;
    uint256 internal constant MAX_RANGES = 4;
    uint256 internal constant MAX_RECIPIENTS = 20;
    address internal constant DEAD = 0x000000000000000000000000000000000000dEaD;
    uint160 internal constant MIN_SQRT_PRICE_LIMIT = 4295128740;
    uint160 internal constant MAX_SQRT_PRICE_LIMIT = 1461446703485210103287273052203988822378723970341;
    /// @dev Observations each launched pool keeps, so its recent average price is there for the buy-back. A pool
    /// writes at most one a second (blocks that share a second share one), so on a token that trades in every block
    /// at BSC's 0.75 s the ring holds the last 31 seconds or more. Growing it is paid once, by the launch (about 22k
    /// gas a slot); a minute's worth (61 slots) would put a flat launch above its 6.5M gas target.
    uint16 internal constant OBSERVATIONS = 32;
    /// @dev The buy-back's reference is the pool's average tick over up to this many seconds, up to the start of the
    /// block: the whole window on a quiet token, the oldest observation the ring still holds on a busy one.
    uint32 internal constant BUYBACK_WINDOW = 60;
    /// @dev The shortest history the buy-back trusts. A busy pool's ring always reaches this far back (31 seconds at
    /// one observation a second), so its buy-back never stops for want of history; a fresh pool waits this long. A
    /// shorter average would follow a rising price more closely (a collect finding the price above the bound waits),
    /// but a BSC validator makes about 12 seconds of blocks in a row with nobody to trade against a price it holds:
    /// over 30 seconds or more that moves the average by 40% at most, and each collect's buy-back by half a spacing.
    uint32 internal constant BUYBACK_MIN_WINDOW = 30;
    /// @dev When the launch takes over a pool someone priced first, it sells at most the supply over this into bids
    /// found between that price and the opening price (0.001%, dust); more in the way refuses the launch
    /// (`PoolOccupied`). Whoever placed such bids earns the pool fee on what they take and a share of the first buy's
    /// fees while its price crosses them: about 1.5% of their bids, measured (test/contracts/attacks.test.ts), so
    /// 1.5e-7 of the market cap at most, below the ~5.4M gas of making the pool (2.7e-4 BNB at BSC's 0.05 gwei) for
    /// any launch under about 1,800 BNB of cap. A larger share would pay a searcher to do it to every launch.
    uint256 internal constant TAKEOVER_DIVISOR = 100_000;

    /// @dev How a swap callback pays the pair currency.
    uint8 internal constant PAY_WRAPPED = 1;
    uint8 internal constant PAY_HELD = 2;
    uint8 internal constant PAY_FROM_CREATOR = 3;
    uint8 internal constant PAY_SUPPLY = 4;
    uint8 internal constant PAY_NOTHING = 5;

    /// @notice What the factory keeps of each launch: only the ranges it minted liquidity into.
    struct LaunchRecord {
        address creator;
        address royaltyTo;
        uint16 burnBps;
        address pool;
        address pair;
        uint256 buybackPending;
        Range[] ranges;
    }

    ServiceConfig public immutable config;
    IPancakeV3Factory public immutable pancakeFactory;
    address public immutable wbnb;

    mapping(address token => LaunchRecord) internal records;

    /// @dev The pool being worked on: the only callbacks honoured.
    address private transient activePool;
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

        bytes32 salt = _salt(msg.sender, p.salt);
        address pool = pancakeFactory.getPool(_tokenAddress(salt, p.name, p.symbol, p.supply), p.pair, p.fee);
        token = address(new LaunchToken{salt: salt}(p.name, p.symbol, p.supply));
        bool tokenIs0 = token < p.pair;
        _checkRanges(p, spacing, tokenIs0);

        uint160 opening = TickMath.sqrtPriceAtTick(p.openingTick);
        uint256 proceeds;
        if (pool == address(0)) pool = pancakeFactory.createPool(token, p.pair, p.fee);
        (uint160 price,,,,,,) = IPancakeV3Pool(pool).slot0();
        activePool = pool;
        if (price == 0) IPancakeV3Pool(pool).initialize(opening);
        else if (price != opening) proceeds = _takeOver(pool, token, p.pair, tokenIs0, price, opening, p.supply);
        IPancakeV3Pool(pool).increaseObservationCardinalityNext(OBSERVATIONS);

        LaunchRecord storage record = records[token];
        record.creator = msg.sender;
        record.royaltyTo = p.royaltyTo;
        record.burnBps = p.burnBps;
        record.pool = pool;
        record.pair = p.pair;
        _laySupply(pool, p.ranges, token, tokenIs0, record);
        if (p.firstBuy > 0) _firstBuy(p, pool, token, tokenIs0, native);
        activePool = address(0);
        if (launchFee > 0) _payNative(wbnb, config.feeRecipient(), launchFee);
        if (proceeds > 0) _payPair(p.pair, msg.sender, proceeds);
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
        address pair = record.pair;
        bool tokenIs0 = token < pair;
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
        uint256 tokensBurned = (tokenFees * burnBps) / BPS;
        uint256 pairToRoyalty = pairFees - pairToBurn;
        uint256 tokenToRoyalty = tokenFees - tokensBurned;
        if (tokensBurned > 0) _safeTransfer(token, DEAD, tokensBurned);
        uint256 buyback = record.buybackPending + pairToBurn;
        if (buyback > 0) {
            (uint256 spent, uint256 bought) = _buyBack(pool, pair, tokenIs0, buyback);
            tokensBurned += bought;
            buyback -= spent;
            record.buybackPending = buyback;
        }
        if (tokenToRoyalty > 0) _safeTransfer(token, recipient, tokenToRoyalty);
        if (pairToRoyalty > 0) _payPair(pair, recipient, pairToRoyalty);
        emit Collected(
            token, recipient, pairFees, tokenFees, pairToRoyalty, tokenToRoyalty, tokensBurned, buyback
        );
    }

    /// @inheritdoc ILaunchFactory
    function buybackPending(address token) external view override returns (uint256) {
        return records[token].buybackPending;
    }

    /// @inheritdoc ILaunchFactory
    function tokenAddress(address creator, bytes32 salt, string calldata name, string calldata symbol, uint256 supply)
        external
        view
        override
        returns (address)
    {
        return _tokenAddress(_salt(creator, salt), name, symbol, supply);
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

    /// @notice Pays the pool the pair currency of a swap: the first buy (wrapped from the BNB sent, or pulled from
    /// the creator's exact allowance) or the buy-back (from the fees held here).
    function pancakeV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata data) external override {
        if (msg.sender != activePool || msg.sender == address(0)) revert NotPool();
        if (amount0Delta <= 0 && amount1Delta <= 0) return;
        (uint8 mode, address pair, address payer) = abi.decode(data, (uint8, address, address));
        uint256 owed = uint256(amount0Delta > 0 ? amount0Delta : amount1Delta);
        if (mode == PAY_WRAPPED) {
            IWBNB(wbnb).deposit{value: owed}();
            _safeTransfer(wbnb, msg.sender, owed);
        } else if (mode == PAY_HELD) {
            _safeTransfer(pair, msg.sender, owed);
        } else if (mode == PAY_SUPPLY) {
            // `pair` is the launched token here: the takeover sells from the supply, within its budget.
            _safeTransfer(pair, msg.sender, owed);
        } else if (mode == PAY_NOTHING) {
            revert PoolOccupied(msg.sender);
        } else {
            _safeTransferFrom(pair, payer, msg.sender, owed);
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

    /// @dev Takes over a pool someone created and priced before the launch (they saw it pending): moves its price to
    /// the opening price with a swap, and the launch goes on as if it had made the pool. Nobody can hold the token
    /// before this transaction, so the only liquidity anyone can have placed is the pair's, bids for the token: beside
    /// the way when the pool was priced with the token cheap (the price then rises through empty ticks, for nothing),
    /// possibly in the way when it was priced with the token dear. Bids in the way are filled from the supply, at their
    /// own prices, all above the opening price, and the pair they pay goes to the creator; such a bidder bought tokens
    /// dearer than anyone could just after the launch, and holds them in a position the first buy buys back from. At
    /// most the supply over `TAKEOVER_DIVISOR` is sold so (dust): more bids in the way than that refuse the launch
    /// (`PoolOccupied`); then their liquidity is what blocking it costs whoever placed them.
    /// @return proceeds the pair the bids in the way paid, for the creator
    function _takeOver(
        address pool,
        address token,
        address pair,
        bool tokenIs0,
        uint160 price,
        uint160 opening,
        uint256 supply
    ) internal returns (uint256 proceeds) {
        // Token0's price rises with the pool's price.
        bool tokenDear = tokenIs0 ? price > opening : price < opening;
        // Selling token0 lowers the price; selling token1 raises it.
        bool zeroForOne = tokenIs0 == tokenDear;
        // A swap must name an amount: at least one wei of the supply, or of the pair (never paid, see PAY_NOTHING).
        uint256 budget = tokenDear ? supply / TAKEOVER_DIVISOR : 1;
        (int256 amount0, int256 amount1) = IPancakeV3Pool(pool).swap(
            address(this),
            zeroForOne,
            int256(budget > 0 ? budget : 1),
            opening,
            tokenDear ? abi.encode(PAY_SUPPLY, token, address(0)) : abi.encode(PAY_NOTHING, pair, address(0))
        );
        (uint160 moved,,,,,,) = IPancakeV3Pool(pool).slot0();
        if (moved != opening) revert PoolOccupied(pool);
        int256 paid = tokenIs0 ? amount1 : amount0;
        proceeds = paid < 0 ? uint256(-paid) : 0;
        emit PoolTakenOver(token, pool, uint256(tokenIs0 ? amount0 : amount1), proceeds);
    }

    /// @dev Pays the pair currency held here: BNB for WBNB (WBNB to a recipient that refuses BNB), else the token.
    function _payPair(address pair, address to, uint256 amount) internal {
        if (pair == wbnb) {
            IWBNB(wbnb).withdraw(amount);
            _payNative(wbnb, to, amount);
        } else {
            _safeTransfer(pair, to, amount);
        }
    }

    /// @dev Mints each range's share of the supply; the last range takes all that remains, dust included, and what
    /// cannot buy one more unit of liquidity is burned. Only ranges that received liquidity are recorded, so
    /// `collect` never touches an empty position.
    function _laySupply(address pool, Range[] calldata ranges, address token, bool tokenIs0, LaunchRecord storage record)
        internal
    {
        uint256 supply = IERC20Balance(token).balanceOf(address(this));
        bytes memory data = abi.encode(token);
        for (uint256 i = 0; i < ranges.length; ++i) {
            bool last = i == ranges.length - 1;
            uint256 amount = last ? IERC20Balance(token).balanceOf(address(this)) : (supply * ranges[i].bps) / BPS;
            uint160 sqrtA = TickMath.sqrtPriceAtTick(ranges[i].tickLower);
            uint160 sqrtB = TickMath.sqrtPriceAtTick(ranges[i].tickUpper);
            uint128 liquidity =
                tokenIs0 ? LiquidityMath.forAmount0(sqrtA, sqrtB, amount) : LiquidityMath.forAmount1(sqrtA, sqrtB, amount);
            if (liquidity > 0) {
                IPancakeV3Pool(pool).mint(address(this), ranges[i].tickLower, ranges[i].tickUpper, liquidity, data);
                record.ranges.push(ranges[i]);
            }
        }
        uint256 residue = IERC20Balance(token).balanceOf(address(this));
        if (residue > 0) _safeTransfer(token, DEAD, residue);
    }

    /// @dev The first buy, a trade like any other: the site fee is taken from it first, exactly as the router takes it
    /// from an exact-in buy (rounded up, in the service's favour); the rest buys from the fresh pool, the pair paid in
    /// BNB (wrapped here) or pulled from the creator, and the tokens are split.
    function _firstBuy(LaunchParams calldata p, address pool, address token, bool tokenIs0, bool native) internal {
        (uint16 siteBps,,, address feeRecipient) = config.fees();
        uint256 fee = (p.firstBuy * siteBps + BPS - 1) / BPS;
        uint256 net = p.firstBuy - fee;
        if (net == 0) revert FirstBuyNotFilled(0, p.firstBuy);
        (int256 amount0, int256 amount1) = IPancakeV3Pool(pool).swap(
            address(this),
            !tokenIs0,
            int256(net),
            tokenIs0 ? MAX_SQRT_PRICE_LIMIT : MIN_SQRT_PRICE_LIMIT,
            abi.encode(native ? PAY_WRAPPED : PAY_FROM_CREATOR, p.pair, msg.sender)
        );
        uint256 spent = uint256(tokenIs0 ? amount1 : amount0);
        uint256 tokens = uint256(-(tokenIs0 ? amount0 : amount1));
        if (spent != net) revert FirstBuyNotFilled(spent, net);
        if (tokens < p.minTokens) revert FirstBuyTooSmall(tokens, p.minTokens);
        if (fee > 0) {
            if (native) _payNative(wbnb, feeRecipient, fee);
            else _safeTransferFrom(p.pair, msg.sender, feeRecipient, fee);
        }
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
        emit FirstBuy(token, p.firstBuy, tokens, fee);
    }

    /// @dev Buys the token with up to `amount` of the pair held here and burns it, but never above a price the pool
    /// itself vouches for: the average tick of the last `BUYBACK_WINDOW` seconds up to the start of this block (so no
    /// trade in this block moves it), plus half a tick spacing, and never more than half a spacing above the price
    /// found. A sandwich around `collect` then pays the pool's fee twice to move the buy-back by less than that fee.
    /// With too little history, or the price already above the bound, the buy-back waits for a later `collect`.
    function _buyBack(address pool, address pair, bool tokenIs0, uint256 amount)
        internal
        returns (uint256 spent, uint256 bought)
    {
        (uint160 price, int24 tick, uint16 index, uint16 cardinality,,,) = IPancakeV3Pool(pool).slot0();
        (bool known, int24 average) = _averageTick(pool, index, cardinality);
        if (!known || amount > uint256(type(int256).max)) return (0, 0);
        int24 spacing = IPancakeV3Pool(pool).tickSpacing();
        int24 band = spacing > 1 ? spacing / 2 : int24(1);
        // The token's price rises with the tick when it is token0, and falls when it is token1.
        int24 bound = tokenIs0 ? (tick < average ? tick : average) + band : (tick > average ? tick : average) - band;
        if (bound >= TickMath.MAX_TICK || bound <= TickMath.MIN_TICK) return (0, 0);
        uint160 limit = TickMath.sqrtPriceAtTick(bound);
        if (tokenIs0 ? price >= limit : price <= limit) return (0, 0);
        activePool = pool;
        (int256 amount0, int256 amount1) =
            IPancakeV3Pool(pool).swap(DEAD, !tokenIs0, int256(amount), limit, abi.encode(PAY_HELD, pair, address(0)));
        activePool = address(0);
        spent = uint256(tokenIs0 ? amount1 : amount0);
        bought = uint256(-(tokenIs0 ? amount0 : amount1));
    }

    /// @dev The pool's average tick up to the start of this second (no trade in it counts), over `BUYBACK_WINDOW`
    /// seconds or, on a pool whose ring of observations does not reach that far back (one that trades every second),
    /// since its oldest observation; rounded down. Unknown while the history is shorter than `BUYBACK_MIN_WINDOW`.
    /// `index` and `cardinality` are the ring's, as slot0 gives them.
    function _averageTick(address pool, uint16 index, uint16 cardinality)
        internal
        view
        returns (bool known, int24 tick)
    {
        // The oldest observation follows the newest in the ring, once the ring has gone round; before, it is the first.
        (uint32 oldest,,, bool initialized) = IPancakeV3Pool(pool).observations((index + 1) % cardinality);
        if (!initialized) (oldest,,,) = IPancakeV3Pool(pool).observations(0);
        uint32 age;
        unchecked {
            age = uint32(block.timestamp) - oldest;
        }
        if (age < BUYBACK_MIN_WINDOW) return (false, 0);
        uint32 window = age < BUYBACK_WINDOW ? age : BUYBACK_WINDOW;
        uint32[] memory ago = new uint32[](2);
        ago[0] = window;
        try IPancakeV3Pool(pool).observe(ago) returns (int56[] memory cumulatives, uint160[] memory) {
            int56 delta = cumulatives[1] - cumulatives[0];
            int56 span = int56(uint56(window));
            int56 mean = delta / span;
            if (delta < 0 && delta % span != 0) mean--;
            return (true, int24(mean));
        } catch {
            return (false, 0);
        }
    }

    /// @dev The CREATE2 address of a token with this salt and these constructor arguments.
    function _tokenAddress(bytes32 salt, string calldata name, string calldata symbol, uint256 supply)
        internal
        view
        returns (address)
    {
        bytes32 initCode = keccak256(abi.encodePacked(type(LaunchToken).creationCode, abi.encode(name, symbol, supply)));
        return address(uint160(uint256(keccak256(abi.encodePacked(hex"ff", address(this), salt, initCode)))));
    }

    function _salt(address creator, bytes32 salt) internal pure returns (bytes32) {
        return keccak256(abi.encode(creator, salt));
    }
}
