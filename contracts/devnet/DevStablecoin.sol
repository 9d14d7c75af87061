// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {ERC20} from "../lib/ERC20.sol";

/// @title Devnet dollar stablecoin
/// @notice Stands in for BSC's USDT (18 decimals there too) on the embedded devnet, so pairs have a dollar price.
/// The whole supply is minted once, at deployment; there is no owner and no mint afterwards.
contract DevStablecoin is ERC20 {
    /// @param holders wallets that each receive `each`
    /// @param each amount for every holder, in wei
    /// @param reserveTo receives `reserve` on top (the operator, to seed pools)
    constructor(address[] memory holders, uint256 each, address reserveTo, uint256 reserve) ERC20("Tether USD", "USDT") {
        for (uint256 i = 0; i < holders.length; ++i) {
            _mint(holders[i], each);
        }
        _mint(reserveTo, reserve);
    }
}
