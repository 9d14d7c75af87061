// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IPancakeV3PoolDeployer} from "@pancakeswap/v3-core/contracts/interfaces/IPancakeV3PoolDeployer.sol";

/// @title PancakeSwap V3 pool deployer for the devnet
/// @notice Same interface as PancakeSwap's own deployer, which is not published on npm. It deploys the published
/// pool creation code unchanged with the same CREATE2 salt, so the pool init-code hash, and with it every pool
/// address computed off-chain or by the periphery, is identical to the real one.
/// @dev The creation code (about 23.5 kB) is too large to embed, so it is kept as the code of a data contract
/// written once at construction and copied back for each deployment.
contract PoolDeployer is IPancakeV3PoolDeployer {
    /// @dev Only the owner may set the factory, and only once.
    error NotOwner();
    /// @dev The factory address was already set.
    error FactoryAlreadySet();
    /// @dev Only the factory may deploy pools.
    error NotFactory();
    /// @dev The pool creation failed (the pool already exists, or its constructor reverted).
    error DeployFailed();

    event SetFactoryAddress(address indexed factory);

    struct Parameters {
        address factory;
        address token0;
        address token1;
        uint24 fee;
        int24 tickSpacing;
    }

    address public immutable owner;
    /// @notice Data contract whose code, after a leading STOP byte, is the pool creation code.
    address public immutable poolCode;
    address public factoryAddress;
    Parameters public override parameters;

    constructor(bytes memory poolCreationCode) {
        owner = msg.sender;
        // Runtime of the data contract: 0x00 (STOP, so it can never be called into) then the creation code.
        bytes memory runtime = abi.encodePacked(hex"00", poolCreationCode);
        // Init code returning `runtime`: PUSH2 len, DUP1, PUSH1 0x0c, PUSH1 0, CODECOPY, PUSH1 0, RETURN, then the data.
        bytes memory init = abi.encodePacked(hex"61", uint16(runtime.length), hex"80600c6000396000f3", runtime);
        address data;
        assembly {
            data := create(0, add(init, 0x20), mload(init))
        }
        if (data == address(0)) revert DeployFailed();
        poolCode = data;
    }

    function setFactoryAddress(address factory) external {
        if (msg.sender != owner) revert NotOwner();
        if (factoryAddress != address(0)) revert FactoryAlreadySet();
        factoryAddress = factory;
        emit SetFactoryAddress(factory);
    }

    /// @inheritdoc IPancakeV3PoolDeployer
    function deploy(address factory, address token0, address token1, uint24 fee, int24 tickSpacing)
        external
        override
        returns (address pool)
    {
        if (msg.sender != factoryAddress) revert NotFactory();
        parameters = Parameters(factory, token0, token1, fee, tickSpacing);
        address data = poolCode;
        bytes32 salt = keccak256(abi.encode(token0, token1, fee));
        assembly {
            let size := sub(extcodesize(data), 1)
            let ptr := mload(0x40)
            extcodecopy(data, ptr, 1, size)
            pool := create2(0, ptr, size, salt)
        }
        if (pool == address(0)) revert DeployFailed();
        delete parameters;
    }
}
