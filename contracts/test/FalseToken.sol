// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {ERC20} from "../lib/ERC20.sol";

/// @title Token that says no, for tests
/// @notice A BEP-20 whose transfers out of one chosen holder return false and move nothing, as some old tokens do.
contract FalseToken is ERC20 {
    address public refusedSender;

    constructor(uint256 supply) ERC20("Falsy", "NO") {
        _mint(msg.sender, supply);
    }

    function refuseTransfersFrom(address holder) external {
        refusedSender = holder;
    }

    function transfer(address to, uint256 amount) external override returns (bool) {
        if (msg.sender == refusedSender) return false;
        _transfer(msg.sender, to, amount);
        return true;
    }

    function transferFrom(address from, address to, uint256 amount) public override returns (bool) {
        if (from == refusedSender) return false;
        return super.transferFrom(from, to, amount);
    }
}
