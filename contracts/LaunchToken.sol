// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {ERC20} from "./lib/ERC20.sol";

/// @title Launched token
/// @notice A plain fixed-supply ERC-20 with 18 decimals: the whole supply is minted once, to its creator (the launch
/// factory, which lays it into the pool). No owner, no mint, no tax, no hooks.
/// @dev Created with CREATE2 by the factory, so its address is known before the launch is sent.
contract LaunchToken is ERC20 {
    /// @param supply the whole supply in wei (whole tokens times 10^18)
    constructor(string memory name_, string memory symbol_, uint256 supply) ERC20(name_, symbol_) {
        _mint(msg.sender, supply);
    }
}
