// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IPayments} from "./IPayments.sol";

/// @title Referral vault
/// @notice Pays the lifetime referral share. Each week the service's owner posts a Merkle root of what every referrer
/// earned that week, funded with the week's total in BNB; a referrer claims one or many weeks in one transaction with
/// proofs, and each week is paid once. For an hour after a week is posted its root may be corrected and its claims
/// wait; then the root is final and claims open, so a correction can never overtake a claim already sent. Leaves are `(uint256 week, address referrer, uint256 amount)`, hashed twice as
/// OpenZeppelin's StandardMerkleTree does (keccak256 of keccak256 of the ABI encoding), with sorted pairs.
interface IReferralVault is IPayments {
    /// @notice One week's claim: the amount in the posted tree and its proof.
    struct Claim {
        uint256 week;
        uint256 amount;
        bytes32[] proof;
    }

    /// @dev The caller is not the service config's owner.
    error NotOwner();
    /// @dev The week's root was already posted, or the root is empty.
    error InvalidWeek(uint256 week);
    /// @dev The BNB sent is not the week's total.
    error WrongFunding(uint256 sent, uint256 total);
    /// @dev No root has been posted for the week.
    error UnknownWeek(uint256 week);
    /// @dev The referrer was already paid for the week.
    error AlreadyClaimed(uint256 week, address referrer);
    /// @dev The proof does not lead from the leaf to the week's root.
    error InvalidProof(uint256 week);
    /// @dev Paying the claim would take more than the week was funded with.
    error WeekOverdrawn(uint256 week);
    /// @dev The week's correction window closed at `opens` and its claims are open: its root can no longer change.
    error WeekFinal(uint256 week, uint256 opens);
    /// @dev The week's claims open at `opens`, when its correction window closes.
    error WeekNotOpen(uint256 week, uint256 opens);
    /// @dev No claims, or more than 104 weeks at once.
    error InvalidClaimCount(uint256 count);

    event RootPosted(uint256 indexed week, bytes32 root, uint256 total);
    event RootReplaced(uint256 indexed week, bytes32 oldRoot, bytes32 root, uint256 total);
    event Claimed(address indexed referrer, uint256 indexed week, uint256 amount);

    /// @notice Posts a week's root and funds it; `msg.value` must equal `total`.
    function postRoot(uint256 week, bytes32 root, uint256 total) external payable;

    /// @notice Replaces a posted week's root and total, to correct it, within the hour after its first posting (before
    /// any claim can be paid). A larger total is funded with the difference as `msg.value`; a smaller one returns the
    /// difference to the owner.
    function replaceRoot(uint256 week, bytes32 root, uint256 total) external payable;

    /// @notice Pays `referrer` every week in `claims`, in one transfer, each week from an hour after its posting. Anyone
    /// may send it; the BNB goes to the referrer.
    function claim(address referrer, Claim[] calldata claims) external returns (uint256 paid);

    /// @notice Whether `referrer` was paid for `week`.
    function claimed(uint256 week, address referrer) external view returns (bool);
}
