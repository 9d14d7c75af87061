// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IReferralVault} from "./interfaces/IReferralVault.sol";
import {Payments} from "./lib/Payments.sol";
import {ServiceConfig} from "./ServiceConfig.sol";

/// @title Referral vault
/// @notice See IReferralVault. The owner is the service config's owner, so one key governs the whole service.
contract ReferralVault is IReferralVault, Payments {
    uint256 internal constant MAX_WEEKS_PER_CLAIM = 104;
    /// @dev How long after a week's first posting its root may still be corrected, and its claims wait: the owner's
    /// time to check the posted tree. The two never overlap, so no correction can overtake a claim already sent.
    uint256 public constant CORRECTION_WINDOW = 1 hours;

    ServiceConfig public immutable config;

    mapping(uint256 week => bytes32) public roots;
    mapping(uint256 week => uint256) public totals;
    mapping(uint256 week => uint256) public paidOut;
    /// @notice When each week's root was first posted (chain seconds).
    mapping(uint256 week => uint256) public postedAt;
    mapping(uint256 week => mapping(address referrer => bool)) public override claimed;

    constructor(ServiceConfig config_) {
        config = config_;
    }

    /// @inheritdoc IReferralVault
    function postRoot(uint256 week, bytes32 root, uint256 total) external payable override {
        if (msg.sender != config.owner()) revert NotOwner();
        if (root == bytes32(0) || roots[week] != bytes32(0)) revert InvalidWeek(week);
        if (msg.value != total) revert WrongFunding(msg.value, total);
        roots[week] = root;
        totals[week] = total;
        postedAt[week] = block.timestamp;
        emit RootPosted(week, root, total);
    }

    /// @inheritdoc IReferralVault
    function replaceRoot(uint256 week, bytes32 root, uint256 total) external payable override {
        address owner = config.owner();
        if (msg.sender != owner) revert NotOwner();
        bytes32 old = roots[week];
        if (old == bytes32(0) || root == bytes32(0)) revert InvalidWeek(week);
        uint256 opens = postedAt[week] + CORRECTION_WINDOW;
        if (block.timestamp >= opens) revert WeekFinal(week, opens);
        uint256 funded = totals[week];
        uint256 due = total > funded ? total - funded : 0;
        if (msg.value != due) revert WrongFunding(msg.value, due);
        roots[week] = root;
        totals[week] = total;
        emit RootReplaced(week, old, root, total);
        if (funded > total) _sendBnb(owner, funded - total);
    }

    /// @inheritdoc IReferralVault
    function claim(address referrer, Claim[] calldata claims) external override returns (uint256 paid) {
        uint256 count = claims.length;
        if (count == 0 || count > MAX_WEEKS_PER_CLAIM) revert InvalidClaimCount(count);
        for (uint256 i = 0; i < count; ++i) {
            Claim calldata c = claims[i];
            bytes32 root = roots[c.week];
            if (root == bytes32(0)) revert UnknownWeek(c.week);
            uint256 opens = postedAt[c.week] + CORRECTION_WINDOW;
            if (block.timestamp < opens) revert WeekNotOpen(c.week, opens);
            if (claimed[c.week][referrer]) revert AlreadyClaimed(c.week, referrer);
            bytes32 leaf = keccak256(bytes.concat(keccak256(abi.encode(c.week, referrer, c.amount))));
            if (_root(leaf, c.proof) != root) revert InvalidProof(c.week);
            claimed[c.week][referrer] = true;
            uint256 weekPaid = paidOut[c.week] + c.amount;
            if (weekPaid > totals[c.week]) revert WeekOverdrawn(c.week);
            paidOut[c.week] = weekPaid;
            paid += c.amount;
            emit Claimed(referrer, c.week, c.amount);
        }
        _sendBnb(referrer, paid);
    }

    /// @dev Walks the proof up from the leaf, hashing each pair in sorted order.
    function _root(bytes32 node, bytes32[] calldata proof) internal pure returns (bytes32) {
        for (uint256 i = 0; i < proof.length; ++i) {
            bytes32 sibling = proof[i];
            node = node < sibling
                ? keccak256(abi.encodePacked(node, sibling))
                : keccak256(abi.encodePacked(sibling, node));
        }
        return node;
    }
}
