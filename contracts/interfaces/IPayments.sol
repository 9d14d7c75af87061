// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// @title Errors of the contracts that move BNB and tokens for their callers
interface IPayments {
    /// @dev The contract was entered again while it was working.
    error Reentered();
    /// @dev Sending BNB failed.
    error BnbTransferFailed(address to);
    /// @dev A BEP-20 transfer failed or returned false.
    error TokenTransferFailed(address token, address to);
}
