// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

interface IL1BlockFees {
    function basefee() external view returns (uint256);
    function blobBaseFee() external view returns (uint256);
    function baseFeeScalar() external view returns (uint32);
    function blobBaseFeeScalar() external view returns (uint32);
    function operatorFeeScalar() external view returns (uint32);
    function operatorFeeConstant() external view returns (uint64);
}

/// @notice The GasPriceOracle predeploy (0x420000000000000000000000000000000000000F) of preconf-rpc's dev
///         chain: the L1 data fee and operator fee a transaction pays, from L1Block's values, with the ABI of
///         the OP Stack predeploy so viem's publicActionsL2() works. The chain runs Fjord and later, so the
///         fee is Fjord's FastLZ estimate; src/opstack/l1-fee.ts computes the same numbers off-chain.
contract GasPriceOracle {
    uint256 public constant DECIMALS = 6;
    address private constant L1_BLOCK = 0x4200000000000000000000000000000000000015;

    int256 private constant COST_INTERCEPT = -42_585_600;
    uint256 private constant COST_FASTLZ_COEF = 836_500;
    uint256 private constant MIN_TRANSACTION_SIZE = 100;
    /// @dev Bytes of the signature an unsigned transaction lacks.
    uint256 private constant SIGNATURE_BYTES = 68;

    // slot 0, set in genesis: the forks active on this chain
    bool public isEcotone;
    bool public isFjord;
    bool public isIsthmus;
    bool public isJovian;

    function version() external pure returns (string memory) {
        return "1.6.0-preconf-rpc";
    }

    function decimals() external pure returns (uint256) {
        return DECIMALS;
    }

    function gasPrice() external view returns (uint256) {
        return block.basefee;
    }

    function baseFee() external view returns (uint256) {
        return block.basefee;
    }

    function overhead() external pure returns (uint256) {
        revert("GasPriceOracle: overhead() is deprecated");
    }

    function scalar() external pure returns (uint256) {
        revert("GasPriceOracle: scalar() is deprecated");
    }

    function l1BaseFee() public view returns (uint256) {
        return IL1BlockFees(L1_BLOCK).basefee();
    }

    function blobBaseFee() public view returns (uint256) {
        return IL1BlockFees(L1_BLOCK).blobBaseFee();
    }

    function baseFeeScalar() public view returns (uint32) {
        return IL1BlockFees(L1_BLOCK).baseFeeScalar();
    }

    function blobBaseFeeScalar() public view returns (uint32) {
        return IL1BlockFees(L1_BLOCK).blobBaseFeeScalar();
    }

    /// @notice The L1 data fee of an unsigned, RLP-encoded transaction (68 bytes are added for its signature).
    function getL1Fee(bytes memory data) external view returns (uint256) {
        return _fjordL1Cost(_flzCompressLength(data) + SIGNATURE_BYTES);
    }

    /// @notice An upper bound of the L1 fee of an unsigned transaction of this size, without compressing it.
    function getL1FeeUpperBound(uint256 unsignedTxSize) external view returns (uint256) {
        uint256 txSize = unsignedTxSize + SIGNATURE_BYTES;
        return _fjordL1Cost(txSize + txSize / 255 + 16);
    }

    /// @notice L1 gas of an unsigned transaction: its estimated compressed size × 16 (deprecated since Fjord).
    function getL1GasUsed(bytes memory data) external pure returns (uint256) {
        return (_estimatedSize(_flzCompressLength(data) + SIGNATURE_BYTES) * 16) / (10 ** DECIMALS);
    }

    /// @notice The operator fee of a transaction that used `gasUsed` gas.
    function getOperatorFee(uint256 gasUsed) external view returns (uint256) {
        if (!isIsthmus) return 0;
        uint256 feeScalar = IL1BlockFees(L1_BLOCK).operatorFeeScalar();
        uint256 feeConstant = IL1BlockFees(L1_BLOCK).operatorFeeConstant();
        if (isJovian) return gasUsed * feeScalar * 100 + feeConstant;
        return (gasUsed * feeScalar) / (10 ** DECIMALS) + feeConstant;
    }

    /// @dev max(minTransactionSize, intercept + fastlzCoef × fastlzSize), bytes × 1e6.
    function _estimatedSize(uint256 fastLzSize) private pure returns (uint256) {
        int256 size = COST_INTERCEPT + int256(COST_FASTLZ_COEF * fastLzSize);
        int256 floor = int256(MIN_TRANSACTION_SIZE * 10 ** DECIMALS);
        return uint256(size < floor ? floor : size);
    }

    function _fjordL1Cost(uint256 fastLzSize) private view returns (uint256) {
        uint256 feeScaled = uint256(baseFeeScalar()) * l1BaseFee() * 16 + uint256(blobBaseFeeScalar()) * blobBaseFee();
        return (_estimatedSize(fastLzSize) * feeScaled) / (10 ** (DECIMALS * 2));
    }

    /// @dev The length FastLZ level 1 compresses `data` to (see src/opstack/fastlz.ts for the algorithm notes).
    function _flzCompressLength(bytes memory data) private pure returns (uint256 size) {
        uint256 length = data.length;
        uint256[] memory table = new uint256[](8192);
        uint256 limit = length < 13 ? 0 : length - 13;
        uint256 anchor = 0;
        uint256 ip = 2;
        while (ip < limit) {
            uint256 ref;
            while (true) {
                uint256 seq = _u24(data, ip);
                uint256 h = _hash(seq);
                ref = table[h];
                table[h] = ip;
                uint256 distance = ip - ref;
                if (ip >= limit) break;
                ip++;
                if (distance <= 0x1fff && seq == _u24(data, ref)) break;
            }
            if (ip >= limit) break;
            ip--;
            if (ip > anchor) size += _literalsLength(ip - anchor);
            uint256 matched = 0;
            uint256 end = limit + 9 - (ip + 3);
            for (; matched < end; matched++) {
                if (data[ref + 3 + matched] != data[ip + 3 + matched]) {
                    matched++;
                    break;
                }
            }
            size += _matchLength(matched);
            ip += matched;
            table[_hash(_u24(data, ip))] = ip;
            ip++;
            table[_hash(_u24(data, ip))] = ip;
            ip++;
            anchor = ip;
        }
        size += _literalsLength(length - anchor);
    }

    function _u24(bytes memory data, uint256 i) private pure returns (uint256) {
        return uint256(uint8(data[i])) | (uint256(uint8(data[i + 1])) << 8) | (uint256(uint8(data[i + 2])) << 16);
    }

    function _hash(uint256 v) private pure returns (uint256) {
        unchecked {
            return ((uint256(uint32(v * 2654435769))) >> 19) & 0x1fff;
        }
    }

    function _literalsLength(uint256 run) private pure returns (uint256 n) {
        n = 33 * (run / 32);
        if (run % 32 != 0) n += (run % 32) + 1;
    }

    function _matchLength(uint256 length) private pure returns (uint256) {
        uint256 l = length - 1;
        return 3 * (l / 262) + (l % 262 >= 6 ? 3 : 2);
    }
}
