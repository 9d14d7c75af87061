// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {ERC20} from "./lib/ERC20.sol";

/// @title Launched token
/// @notice A plain fixed-supply ERC-20 with 18 decimals: the whole supply is minted once, to its creator (the launch
/// factory, which lays it into the pool). No owner, no mint, no tax, no hooks.
///
/// Permit2 holds a built-in unlimited allowance from every holder, so selling needs no approval of the token itself:
/// only Permit2's own approval of a spender, which names the spender, an amount and an end date (the app's router
/// approval lasts `limits.permitDays`), or a signed permit. The trust this adds: Permit2 (canonical, immutable, no
/// owner, at the same address on every chain) moves a holder's tokens for whoever the holder approved or signed for
/// in Permit2, and a flaw in Permit2 would reach every holder rather than only those who approved it. Approving
/// Permit2 for anything but the unlimited amount is refused (`AllowanceFixed`), so no holder believes they revoked it.
/// @dev Created with CREATE2 by the factory, so its address is known before the launch is sent.
contract LaunchToken is ERC20 {
    /// @dev Permit2's canonical address (BNB Chain, its testnet, and the devnet, which deploys it there).
    address internal constant PERMIT2 = 0x000000000022D473030F116dDEE9F6B43aC78BA3;

    /// @param supply the whole supply in wei (whole tokens times 10^18)
    constructor(string memory name_, string memory symbol_, uint256 supply) ERC20(name_, symbol_) {
        _mint(msg.sender, supply);
    }

    function _unlimitedSpender(address spender) internal pure override returns (bool) {
        return spender == PERMIT2;
    }
}
