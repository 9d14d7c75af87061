// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {ERC20} from "../lib/ERC20.sol";

/// @title Hostile token for tests
/// @notice A BEP-20 that, once armed, calls back into a target whenever tokens are pulled from it (transferFrom) or
/// BNB is sent to it, and records how that call ended. Used as a pair currency and as a referrer to prove that the
/// router cannot be re-entered mid-trade.
contract ReentrantToken is ERC20 {
    address public target;
    bytes public payload;
    /// @notice Whether the last call back succeeded, and the first four bytes of what it returned or reverted with.
    bool public lastOk;
    bytes4 public lastSelector;
    /// @notice One more than the calls back made: it starts at 1 so that counting costs little gas, and a receive hook
    /// under the payers' gas limit for BNB recipients can still call back.
    uint256 public attempts = 1;

    constructor(uint256 supply) ERC20("Hostile", "HOST") {
        _mint(msg.sender, supply);
    }

    function arm(address target_, bytes calldata payload_) external {
        target = target_;
        payload = payload_;
    }

    function transferFrom(address from, address to, uint256 amount) public override returns (bool) {
        _callBack();
        return super.transferFrom(from, to, amount);
    }

    receive() external payable {
        _callBack();
    }

    function _callBack() internal {
        if (target == address(0)) return;
        attempts++;
        (bool ok, bytes memory result) = target.call(payload);
        lastOk = ok;
        lastSelector = result.length >= 4 ? bytes4(result) : bytes4(0);
    }
}
