// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice A fee vault predeploy of preconf-rpc's dev chain: the sequencer (0x…0011), base fee (0x…0019),
///         L1 fee (0x…001A) and operator fee (0x…001B) vaults share this code. The chain credits fees to
///         them directly (as op-geth does); `withdraw` pays the balance to the recipient on L2 (there is no
///         L1 to bridge to). Getter names follow the OP Stack FeeVault.
contract FeeVault {
    /// @dev WithdrawalNetwork.L2 in the OP Stack FeeVault.
    uint8 public constant WITHDRAWAL_NETWORK = 1;

    // slot 0, set in genesis
    address public recipient;
    // slot 1
    uint256 public minWithdrawalAmount;
    // slot 2
    uint256 public totalProcessed;

    event Withdrawal(uint256 value, address to, address from, uint8 withdrawalNetwork);

    receive() external payable {}

    function version() external pure returns (string memory) {
        return "1.5.0-preconf-rpc";
    }

    function RECIPIENT() external view returns (address) {
        return recipient;
    }

    function MIN_WITHDRAWAL_AMOUNT() external view returns (uint256) {
        return minWithdrawalAmount;
    }

    function withdrawalNetwork() external pure returns (uint8) {
        return WITHDRAWAL_NETWORK;
    }

    function withdraw() external returns (uint256 value) {
        value = address(this).balance;
        require(value >= minWithdrawalAmount, "FeeVault: withdrawal amount must be greater than minimum withdrawal amount");
        totalProcessed += value;
        emit Withdrawal(value, recipient, msg.sender, WITHDRAWAL_NETWORK);
        (bool ok,) = recipient.call{value: value}("");
        require(ok, "FeeVault: failed to send ETH to L2 fee recipient");
    }
}
