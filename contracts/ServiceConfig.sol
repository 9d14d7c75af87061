// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// @title Service configuration
/// @notice The one place the service's fee rates, launch fee, launch pause and fee recipient live. The factory and
/// the router read it on every call, and the API reads it live for `GET /settings`. The owner may change every
/// value, but only within hard caps that no one can change: the site fee at most 3% of a trade (`MAX_SITE_FEE_BPS`),
/// the referrer's instant cut at most the site fee it is paid from, the lifetime referral share at most half of the
/// service's income (`MAX_LIFETIME_REFERRAL_BPS`), and the launch fee at most 1 BNB (`MAX_LAUNCH_FEE_WEI`). Ownership
/// moves in two steps: the owner proposes, the new owner accepts, so a typo cannot hand the service to no one.
contract ServiceConfig {
    /// @dev The caller is not the owner.
    error NotOwner();
    /// @dev The caller is not the proposed owner.
    error NotPendingOwner();
    /// @dev A rate is above its hard cap, or the referrer's cut is above the site fee it is paid from.
    error RateAboveCap(uint256 rate, uint256 cap);
    /// @dev The launch fee is above its hard cap.
    error LaunchFeeAboveCap(uint256 fee, uint256 cap);
    /// @dev The zero address was given where an account is needed.
    error ZeroAddress();

    event FeesSet(uint16 siteFeeBps, uint16 referrerBps, uint16 lifetimeReferralBps);
    event LaunchFeeSet(uint256 launchFeeWei);
    event LaunchesPausedSet(bool paused);
    event FeeRecipientSet(address indexed feeRecipient);
    event OwnershipTransferStarted(address indexed owner, address indexed pendingOwner);
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    /// @notice Highest site fee: 3% of a trade.
    uint16 public constant MAX_SITE_FEE_BPS = 300;
    /// @notice Highest lifetime referral share: half of the service's income.
    uint16 public constant MAX_LIFETIME_REFERRAL_BPS = 5000;
    /// @notice Highest launch fee: 1 BNB.
    uint256 public constant MAX_LAUNCH_FEE_WEI = 1 ether;

    address public owner;
    /// @notice The proposed owner, until it accepts; the zero address when none is proposed.
    address public pendingOwner;
    /// @notice Where the site fee and the launch fee go. A recipient that refuses BNB is paid in WBNB.
    address public feeRecipient;
    uint16 public siteFeeBps;
    /// @notice The referrer's instant cut, in bps of the trade, paid out of the site fee (so never above it).
    uint16 public referrerBps;
    uint16 public lifetimeReferralBps;
    bool public launchesPaused;
    uint256 public launchFeeWei;

    modifier onlyOwner() {
        if (msg.sender != owner) revert NotOwner();
        _;
    }

    constructor(address owner_, address feeRecipient_, uint16 siteFeeBps_, uint16 referrerBps_, uint16 lifetimeBps_) {
        if (owner_ == address(0) || feeRecipient_ == address(0)) revert ZeroAddress();
        owner = owner_;
        feeRecipient = feeRecipient_;
        emit OwnershipTransferred(address(0), owner_);
        emit FeeRecipientSet(feeRecipient_);
        _setFees(siteFeeBps_, referrerBps_, lifetimeBps_);
    }

    /// @notice Everything a trade or a settings read needs, in one call.
    function fees()
        external
        view
        returns (uint16 siteFee, uint16 referrerCut, uint16 lifetimeShare, address recipient)
    {
        return (siteFeeBps, referrerBps, lifetimeReferralBps, feeRecipient);
    }

    function setFees(uint16 siteFeeBps_, uint16 referrerBps_, uint16 lifetimeBps_) external onlyOwner {
        _setFees(siteFeeBps_, referrerBps_, lifetimeBps_);
    }

    function setLaunchFee(uint256 launchFeeWei_) external onlyOwner {
        if (launchFeeWei_ > MAX_LAUNCH_FEE_WEI) revert LaunchFeeAboveCap(launchFeeWei_, MAX_LAUNCH_FEE_WEI);
        launchFeeWei = launchFeeWei_;
        emit LaunchFeeSet(launchFeeWei_);
    }

    function setLaunchesPaused(bool paused) external onlyOwner {
        launchesPaused = paused;
        emit LaunchesPausedSet(paused);
    }

    function setFeeRecipient(address feeRecipient_) external onlyOwner {
        if (feeRecipient_ == address(0)) revert ZeroAddress();
        feeRecipient = feeRecipient_;
        emit FeeRecipientSet(feeRecipient_);
    }

    /// @notice Proposes a new owner, who must call `acceptOwnership`; the zero address withdraws a proposal.
    function transferOwnership(address newOwner) external onlyOwner {
        pendingOwner = newOwner;
        emit OwnershipTransferStarted(owner, newOwner);
    }

    /// @notice Takes the ownership proposed to the caller.
    function acceptOwnership() external {
        if (msg.sender != pendingOwner || msg.sender == address(0)) revert NotPendingOwner();
        emit OwnershipTransferred(owner, msg.sender);
        owner = msg.sender;
        pendingOwner = address(0);
    }

    function _setFees(uint16 siteFeeBps_, uint16 referrerBps_, uint16 lifetimeBps_) internal {
        if (siteFeeBps_ > MAX_SITE_FEE_BPS) revert RateAboveCap(siteFeeBps_, MAX_SITE_FEE_BPS);
        if (referrerBps_ > siteFeeBps_) revert RateAboveCap(referrerBps_, siteFeeBps_);
        if (lifetimeBps_ > MAX_LIFETIME_REFERRAL_BPS) revert RateAboveCap(lifetimeBps_, MAX_LIFETIME_REFERRAL_BPS);
        siteFeeBps = siteFeeBps_;
        referrerBps = referrerBps_;
        lifetimeReferralBps = lifetimeBps_;
        emit FeesSet(siteFeeBps_, referrerBps_, lifetimeBps_);
    }
}
