// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IPayments} from "../interfaces/IPayments.sol";

/// @notice WBNB (WETH9): what the router, the factory and the payments below need of it.
interface IWBNB {
    function deposit() external payable;
    function withdraw(uint256 amount) external;
}

/// @title Payments
/// @notice The reentrancy lock and the BNB and BEP-20 transfers shared by the router and the factory.
abstract contract Payments is IPayments {
    /// @dev Gas a recipient of BNB may use to take it: enough for a multisig's receive hook, too little to stall a
    /// trade.
    uint256 internal constant NATIVE_GAS = 50_000;

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

    /// @dev Pays BNB to a recipient that may refuse it (a contract without a receive function, or one that reverts):
    /// what it refuses is wrapped and sent as WBNB instead, so no recipient can stop the payer's call.
    function _payNative(address wbnb, address to, uint256 amount) internal {
        (bool ok,) = to.call{value: amount, gas: NATIVE_GAS}("");
        if (ok) return;
        IWBNB(wbnb).deposit{value: amount}();
        _safeTransfer(wbnb, to, amount);
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
