// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice The L1Block predeploy (0x4200000000000000000000000000000000000015) of preconf-rpc's dev chain:
///         the L1 origin and fee parameters, written by the L1-info deposit at the start of every block.
///         ABI and storage layout follow the OP Stack predeploy (specs/protocol/predeploys.md), so nodes and
///         libraries that read its slots or call its getters see what they would on an OP Stack chain.
contract L1Block {
    address public constant DEPOSITOR_ACCOUNT = 0xDeaDDEaDDeAdDeAdDEAdDEaddeAddEAdDEAd0001;

    // slot 0
    uint64 public number;
    uint64 public timestamp;
    // slot 1
    uint256 public basefee;
    // slot 2
    bytes32 public hash;
    // slot 3
    uint64 public sequenceNumber;
    uint32 public blobBaseFeeScalar;
    uint32 public baseFeeScalar;
    // slot 4
    bytes32 public batcherHash;
    // slots 5, 6: pre-Ecotone, kept for the layout
    uint256 public l1FeeOverhead;
    uint256 public l1FeeScalar;
    // slot 7
    uint256 public blobBaseFee;
    // slot 8
    uint64 public operatorFeeConstant;
    uint32 public operatorFeeScalar;
    uint16 public daFootprintGasScalar;

    error NotDepositor();
    error BadCalldataLength(uint256 expected, uint256 actual);

    function version() external pure returns (string memory) {
        return "1.7.0-preconf-rpc";
    }

    /// @notice Ecotone format: packed, 160 bytes after the selector.
    function setL1BlockValuesEcotone() external {
        _setEcotoneFields(164);
    }

    /// @notice Isthmus format: Ecotone's fields, then operatorFeeScalar (uint32) and operatorFeeConstant (uint64).
    function setL1BlockValuesIsthmus() external {
        _setEcotoneFields(176);
        _setOperatorFee();
    }

    /// @notice Jovian format: Isthmus's fields, then daFootprintGasScalar (uint16).
    function setL1BlockValuesJovian() external {
        _setEcotoneFields(178);
        _setOperatorFee();
        daFootprintGasScalar = uint16(_word(176, 2));
    }

    function _setEcotoneFields(uint256 length) private {
        if (msg.sender != DEPOSITOR_ACCOUNT) revert NotDepositor();
        if (msg.data.length != length) revert BadCalldataLength(length, msg.data.length);
        baseFeeScalar = uint32(_word(4, 4));
        blobBaseFeeScalar = uint32(_word(8, 4));
        sequenceNumber = uint64(_word(12, 8));
        timestamp = uint64(_word(20, 8));
        number = uint64(_word(28, 8));
        basefee = _word(36, 32);
        blobBaseFee = _word(68, 32);
        hash = bytes32(_word(100, 32));
        batcherHash = bytes32(_word(132, 32));
    }

    function _setOperatorFee() private {
        operatorFeeScalar = uint32(_word(164, 4));
        operatorFeeConstant = uint64(_word(168, 8));
    }

    /// @dev The big-endian integer in calldata bytes [offset, offset + size).
    function _word(uint256 offset, uint256 size) private pure returns (uint256 value) {
        assembly {
            value := shr(sub(256, mul(size, 8)), calldataload(offset))
        }
    }
}
