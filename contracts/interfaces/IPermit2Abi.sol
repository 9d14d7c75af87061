// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

// Compiled only for its ABI: Permit2 itself is placed on the devnet from its canonical runtime bytecode.
import {IPermit2} from "@uniswap/v4-periphery/lib/permit2/src/interfaces/IPermit2.sol";
