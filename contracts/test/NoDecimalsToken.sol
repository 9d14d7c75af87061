// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// @title Token without readable decimals, for tests
/// @notice A BEP-20 that moves balances like any other but whose `decimals()` reverts, as some broken or hostile
/// tokens do. A pair made of it must never stop the service from valuing its other trades.
contract NoDecimalsToken {
    /// @dev Always: this token will not say its decimals.
    error NoDecimals();
    /// @dev The sender's balance or allowance is below the amount.
    error NotEnough();

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    string public constant name = "No Decimals";
    string public constant symbol = "NODEC";
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    constructor(uint256 supply) {
        totalSupply = supply;
        balanceOf[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    function decimals() external pure returns (uint8) {
        revert NoDecimals();
    }

    function approve(address spender, uint256 amount) external returns (bool) {
        allowance[msg.sender][spender] = amount;
        emit Approval(msg.sender, spender, amount);
        return true;
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        _move(msg.sender, to, amount);
        return true;
    }

    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            if (allowed < amount) revert NotEnough();
            allowance[from][msg.sender] = allowed - amount;
        }
        _move(from, to, amount);
        return true;
    }

    function _move(address from, address to, uint256 amount) internal {
        if (balanceOf[from] < amount) revert NotEnough();
        balanceOf[from] -= amount;
        balanceOf[to] += amount;
        emit Transfer(from, to, amount);
    }
}
