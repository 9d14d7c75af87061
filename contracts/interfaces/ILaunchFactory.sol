// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IPayments} from "./IPayments.sol";

/// @title Launch factory
/// @notice Launches a token in one transaction: creates it at an address known in advance, opens its PancakeSwap V3
/// pool at the asked tick, lays the whole supply across 1 to 4 single-sided ranges that nobody can ever withdraw,
/// optionally makes a first buy (a trade: it pays the site fee) split among recipients, and takes the launch fee. A
/// pool that someone created before the launch (seeing it pending) is used, and if they priced it, taken over: its
/// price is moved to the opening price, through empty ticks for nothing, or selling up to 0.001% of the supply into bids
/// placed in the way, at their prices, all above the opening price (`PoolTakenOver`; what they paid goes to the
/// creator). More bids in the way than that refuse the launch (`PoolOccupied`): launch again with another salt.
/// Later, anyone may collect the positions' trading fees, which pay the creator's royalty, with `burnBps` of it
/// bought back and burned at a price the pool's own recent average bounds.
interface ILaunchFactory is IPayments {
    /// @notice A slice of the supply over [tickLower, tickUpper], `bps` of the supply (all ranges add to 10,000).
    struct Range {
        int24 tickLower;
        int24 tickUpper;
        uint16 bps;
    }

    /// @notice A share of the first buy's tokens; the dead address burns its share.
    struct Recipient {
        address wallet;
        uint16 bps;
    }

    /// @param name token name
    /// @param symbol token symbol
    /// @param supply whole supply, in wei
    /// @param salt with the creator, fixes the token's address (see `tokenAddress`)
    /// @param pair pair currency (WBNB for BNB, paid natively)
    /// @param fee pool fee tier
    /// @param openingTick the pool's tick when the launch lands, a multiple of the tier's spacing
    /// @param ranges 1 to 4 ranges on the token's side of the opening tick, the last reaching the top usable tick
    /// @param firstBuy pair currency to spend on a first buy in the same transaction (0 for none)
    /// @param minTokens the fewest tokens the first buy may return
    /// @param firstBuyTo who receives the first buy's tokens (empty: the creator)
    /// @param royaltyTo who receives the royalty (zero: the creator); only with `burnBps` 0
    /// @param burnBps share of the royalty bought back and burned: 0, 100 to 9,999, or 10,000
    /// @param metadataURI the token's metadata (logo and details)
    struct LaunchParams {
        string name;
        string symbol;
        uint256 supply;
        bytes32 salt;
        address pair;
        uint24 fee;
        int24 openingTick;
        Range[] ranges;
        uint256 firstBuy;
        uint256 minTokens;
        Recipient[] firstBuyTo;
        address royaltyTo;
        uint16 burnBps;
        string metadataURI;
    }

    /// @dev Launching is paused by the owner of the service config.
    error LaunchesPaused();
    /// @dev The supply is zero or above 10^30 wei (10^12 whole tokens).
    error InvalidSupply();
    /// @dev The fee tier is not enabled on the exchange.
    error InvalidFeeTier(uint24 fee);
    /// @dev The opening tick is out of range or not a multiple of the tier's spacing.
    error InvalidTick(int24 tick);
    /// @dev Ranges: 1 to 4, aligned, on the token's side of the opening tick, bps adding to 10,000, the last reaching
    /// the top usable tick.
    error InvalidRanges();
    /// @dev First-buy split: at most 20 recipients, distinct, bps adding to 10,000; or a split without a first buy.
    error InvalidSplit();
    /// @dev burnBps is not 0, 100 to 9,999, or 10,000.
    error InvalidBurn(uint16 burnBps);
    /// @dev A royalty recipient was named together with a burn share.
    error ConflictingRoyalty();
    /// @dev The BNB sent is not the launch fee plus, for a BNB pair, the first buy.
    error WrongValue(uint256 sent, uint256 due);
    /// @dev The first buy would return fewer tokens than its floor.
    error FirstBuyTooSmall(uint256 tokens, uint256 minTokens);
    /// @dev The pool could not take the whole first buy.
    error FirstBuyNotFilled(uint256 spent, uint256 asked);
    /// @dev Someone priced the token's pool before the launch and placed bids between its price and the opening price
    /// that would take more than 0.001% of the supply; the launch creates nothing. Launch with another salt.
    error PoolOccupied(address pool);
    /// @dev A pool callback came from an address that is not the pool being worked on.
    error NotPool();
    /// @dev The token was not launched by this factory.
    error UnknownToken(address token);

    /// @notice One per launch, with everything the indexer needs.
    event Launched(
        address indexed token,
        address indexed creator,
        address indexed pool,
        address pair,
        uint24 fee,
        uint256 supply,
        int24 openingTick,
        bytes32 salt,
        string name,
        string symbol,
        string metadataURI,
        address royaltyTo,
        uint16 burnBps,
        Range[] ranges
    );

    /// @notice The launch took over a pool someone had priced before it: it moved the price to the opening price,
    /// selling `tokensSold` of the supply into bids in the way for `proceeds` of the pair, paid to the creator.
    event PoolTakenOver(address indexed token, address indexed pool, uint256 tokensSold, uint256 proceeds);

    /// @notice The launch's first buy: `spent` of the pair (the site fee `siteFee` included, as a router buy's
    /// `pairAmount`) for `tokens`, split among the recipients.
    event FirstBuy(address indexed token, uint256 spent, uint256 tokens, uint256 siteFee);

    /// @notice Fees collected from a token's positions and where they went. `tokensBurned` adds the burn share of the
    /// token fees and what the buy-back bought; `buybackPending` is the pair currency kept for a later buy-back, when
    /// the price was above what the pool's recent average allows.
    event Collected(
        address indexed token,
        address indexed royaltyRecipient,
        uint256 pairFees,
        uint256 tokenFees,
        uint256 pairToRoyalty,
        uint256 tokenToRoyalty,
        uint256 tokensBurned,
        uint256 buybackPending
    );

    /// @notice Launches a token; payable with the launch fee (and, for a BNB pair, the first buy).
    function launch(LaunchParams calldata params) external payable returns (address token);

    /// @notice Collects a launched token's trading fees and pays the royalty; anyone may call it. The burn share of
    /// the pair fees buys the token back, but never above the pool's average price (up to the start of the second:
    /// over the last minute, or on a pool that trades every second over the 31 seconds or more its observations
    /// reach back, and not before 30 seconds of history) plus half a tick spacing, nor by more than half a spacing
    /// at once: what that leaves is kept for the next `collect`.
    function collect(address token) external;

    /// @notice The pair currency kept for a token's next buy-back.
    function buybackPending(address token) external view returns (uint256);

    /// @notice Where `launch` will create a creator's token.
    function tokenAddress(address creator, bytes32 salt, string calldata name, string calldata symbol, uint256 supply)
        external
        view
        returns (address);
}
