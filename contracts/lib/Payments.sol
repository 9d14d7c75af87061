// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IPayments} from "../interfaces/IPayments.sol";

/// @title Payments
/// @notice The reentrancy lock and the BNB and BEP-20 transfers shared by the router and the factory.
abstract contract Payments is IPayments {
    bool private transient locked;

    modifier nonReentrant() {
        if (locked) revert Reentered();
        locked = true;
        _;
        locked = false;
    }

    function _sendBnb(address to, uint256 amount) internal {
        (bool ok,) = to.call{value: amount}("");
        if (!ok) revert BnbTransferFailed(to);
    }

    /// @dev ERC-20 transfer that accepts tokens returning nothing, and refuses ones returning false.
    function _safeTransfer(address token, address to, uint256 amount) internal {
        (bool ok, bytes memory result) = token.call(abi.encodeWithSelector(0xa9059cbb, to, amount));
        if (!ok || (result.length != 0 && !abi.decode(result, (bool)))) revert TokenTransferFailed(token, to);
    }

    function _safeTransferFrom(address token, address from, address to, uint256 amount) internal {
        (bool ok, bytes memory result) = token.call(abi.encodeWithSelector(0x23b872dd, from, to, amount));
        if (!ok || (result.length != 0 && !abi.decode(result, (bool)))) revert TokenTransferFailed(token, to);
    }
}
