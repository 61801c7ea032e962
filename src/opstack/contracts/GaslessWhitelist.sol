// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice X Layer's gasless whitelist as preconf-rpc's dev chain deploys it, written from the behaviour
///         okx/optimism 3349a7c describes (packages/contracts-bedrock GaslessWhitelist and
///         rust/alloy-op-evm/src/block/xlayer_gasless_contract.rs): block building asks
///         getGaslessAllowance(tx.to, tx.input) with a system call, and a zero-priced transaction runs
///         gasless when the answer is (true, gasLimit) and its gas limit is at most gasLimit. The rules are
///         about the call (its target, selector and first argument), never its sender. Storage is laid out
///         as theirs (slots 0-4; the owner in OpenZeppelin v5's ERC-7201 Ownable slot), so state written
///         for one reads the same in the other.
contract GaslessWhitelist {
    bytes4 public constant TRANSFER_SELECTOR = 0xa9059cbb;
    bytes4 public constant TRANSFER_FROM_SELECTOR = 0x23b872dd;
    bytes4 public constant APPROVE_SELECTOR = 0x095ea7b3;

    /// @dev keccak256(abi.encode(uint256(keccak256("openzeppelin.storage.Ownable")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 private constant OWNER_SLOT = 0x9016d09d72d40fdae2fd8ceac6b6234c7706214fd39c1cd1e609a0528c199300;

    struct Rule {
        bool allowed;
        uint64 gasLimit;
    }

    // slot 0
    mapping(address => Rule) public fullyGaslessTargets;
    // slot 1
    mapping(address => Rule) public gaslessTransferTokens;
    // slot 2
    mapping(address => Rule) public gaslessTransferFromTokens;
    // slot 3
    mapping(address => mapping(address => Rule)) public approveSpendersByToken;
    // slot 4: maxGasLimit in bytes 0-7, gaslessEnabled in byte 8
    uint64 public maxGasLimit;
    bool public gaslessEnabled;

    event FullyGaslessTargetSet(address indexed target, bool allowed, uint64 gasLimit);
    event GaslessTransferTokenSet(address indexed token, bool allowed, uint64 gasLimit);
    event GaslessTransferFromTokenSet(address indexed token, bool allowed, uint64 gasLimit);
    event ApproveSpenderSet(address indexed token, address indexed spender, bool allowed, uint64 gasLimit);
    event GaslessEnabledSet(bool enabled);
    event MaxGasLimitSet(uint64 maxGasLimit);
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    error OwnableUnauthorizedAccount(address account);
    error ZeroAddress();
    error InvalidGasLimit();
    error InvalidMaxGasLimit();
    error GasLimitExceedsMax();

    modifier onlyOwner() {
        if (msg.sender != owner()) revert OwnableUnauthorizedAccount(msg.sender);
        _;
    }

    function owner() public view returns (address account) {
        bytes32 slot = OWNER_SLOT;
        assembly ("memory-safe") {
            account := sload(slot)
        }
    }

    function transferOwnership(address newOwner) external onlyOwner {
        if (newOwner == address(0)) revert ZeroAddress();
        address previous = owner();
        bytes32 slot = OWNER_SLOT;
        assembly ("memory-safe") {
            sstore(slot, newOwner)
        }
        emit OwnershipTransferred(previous, newOwner);
    }

    /// @notice Whether a call to `to` starting with `dataPrefix` may run gasless, and the most gas it may ask for.
    function getGaslessAllowance(address to, bytes calldata dataPrefix)
        external
        view
        returns (bool allowed, uint64 gasLimit)
    {
        if (!gaslessEnabled || maxGasLimit == 0 || to == address(0) || dataPrefix.length < 4) return (false, 0);
        Rule memory rule = fullyGaslessTargets[to];
        if (rule.allowed) return (true, capped(rule.gasLimit));
        bytes4 selector = bytes4(dataPrefix[:4]);
        if (selector == TRANSFER_SELECTOR) rule = gaslessTransferTokens[to];
        else if (selector == TRANSFER_FROM_SELECTOR) rule = gaslessTransferFromTokens[to];
        else if (selector == APPROVE_SELECTOR && dataPrefix.length >= 36) {
            address spender = address(uint160(uint256(bytes32(dataPrefix[4:36]))));
            rule = approveSpendersByToken[to][spender];
        } else return (false, 0);
        return rule.allowed ? (true, capped(rule.gasLimit)) : (false, 0);
    }

    function setFullyGaslessTarget(address target, bool allowed, uint64 gasLimit) external onlyOwner {
        fullyGaslessTargets[checked(target)] = rule(allowed, gasLimit);
        emit FullyGaslessTargetSet(target, allowed, gasLimit);
    }

    function setGaslessTransferToken(address token, bool allowed, uint64 gasLimit) external onlyOwner {
        gaslessTransferTokens[checked(token)] = rule(allowed, gasLimit);
        emit GaslessTransferTokenSet(token, allowed, gasLimit);
    }

    function setGaslessTransferFromToken(address token, bool allowed, uint64 gasLimit) external onlyOwner {
        gaslessTransferFromTokens[checked(token)] = rule(allowed, gasLimit);
        emit GaslessTransferFromTokenSet(token, allowed, gasLimit);
    }

    function setApproveSpender(address token, address spender, bool allowed, uint64 gasLimit) external onlyOwner {
        approveSpendersByToken[checked(token)][checked(spender)] = rule(allowed, gasLimit);
        emit ApproveSpenderSet(token, spender, allowed, gasLimit);
    }

    function setGaslessEnabled(bool enabled) external onlyOwner {
        gaslessEnabled = enabled;
        emit GaslessEnabledSet(enabled);
    }

    function setMaxGasLimit(uint64 newMaxGasLimit) external onlyOwner {
        if (newMaxGasLimit == 0) revert InvalidMaxGasLimit();
        maxGasLimit = newMaxGasLimit;
        emit MaxGasLimitSet(newMaxGasLimit);
    }

    function capped(uint64 gasLimit) private view returns (uint64) {
        return gasLimit > maxGasLimit ? maxGasLimit : gasLimit;
    }

    function checked(address account) private pure returns (address) {
        if (account == address(0)) revert ZeroAddress();
        return account;
    }

    /// @dev An enabled rule needs a gas limit from 1 to maxGasLimit; a removal takes any.
    function rule(bool allowed, uint64 gasLimit) private view returns (Rule memory) {
        if (allowed && gasLimit == 0) revert InvalidGasLimit();
        if (allowed && gasLimit > maxGasLimit) revert GasLimitExceedsMax();
        return Rule(allowed, gasLimit);
    }
}
