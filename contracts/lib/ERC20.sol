// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// @title Minimal ERC-20
/// @notice Plain balances and allowances; no hooks, no owner. The supply is set by the inheriting contract with `_mint`.
abstract contract ERC20 {
    /// @dev The sender's balance is below the amount.
    error InsufficientBalance(address from, uint256 balance, uint256 needed);
    /// @dev The spender's allowance is below the amount.
    error InsufficientAllowance(address spender, uint256 allowance, uint256 needed);
    /// @dev Transfers to the zero address are refused; burn by sending to the dead address instead.
    error ZeroRecipient();
    /// @dev The spender's allowance is built in at infinity and cannot be set (see `_unlimitedSpender`).
    error AllowanceFixed(address spender);

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    string public name;
    string public symbol;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) internal allowances;

    constructor(string memory name_, string memory symbol_) {
        name = name_;
        symbol = symbol_;
    }

    function decimals() external pure returns (uint8) {
        return 18;
    }

    function transfer(address to, uint256 amount) external virtual returns (bool) {
        _transfer(msg.sender, to, amount);
        return true;
    }

    /// @notice What `spender` may still move of `owner`'s tokens.
    function allowance(address owner, address spender) external view returns (uint256) {
        return _unlimitedSpender(spender) ? type(uint256).max : allowances[owner][spender];
    }

    function approve(address spender, uint256 amount) external returns (bool) {
        if (_unlimitedSpender(spender) && amount != type(uint256).max) revert AllowanceFixed(spender);
        allowances[msg.sender][spender] = amount;
        emit Approval(msg.sender, spender, amount);
        return true;
    }

    function transferFrom(address from, address to, uint256 amount) public virtual returns (bool) {
        if (!_unlimitedSpender(msg.sender)) {
            uint256 allowed = allowances[from][msg.sender];
            if (allowed != type(uint256).max) {
                if (allowed < amount) revert InsufficientAllowance(msg.sender, allowed, amount);
                unchecked {
                    allowances[from][msg.sender] = allowed - amount;
                }
            }
        }
        _transfer(from, to, amount);
        return true;
    }

    /// @dev A spender every holder allows without limit, built in; none unless the token says so.
    function _unlimitedSpender(address) internal view virtual returns (bool) {
        return false;
    }

    function _transfer(address from, address to, uint256 amount) internal {
        if (to == address(0)) revert ZeroRecipient();
        uint256 balance = balanceOf[from];
        if (balance < amount) revert InsufficientBalance(from, balance, amount);
        unchecked {
            balanceOf[from] = balance - amount;
            balanceOf[to] += amount;
        }
        emit Transfer(from, to, amount);
    }

    function _mint(address to, uint256 amount) internal {
        if (to == address(0)) revert ZeroRecipient();
        totalSupply += amount;
        unchecked {
            balanceOf[to] += amount;
        }
        emit Transfer(address(0), to, amount);
    }
}
