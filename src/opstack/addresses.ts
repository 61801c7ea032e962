/** The OP Stack's fixed addresses (specs/protocol/predeploys.md, deposits.md); one home for each. */
import { hexToBytes } from '@ethereumjs/util'

/** The sender of every L1-info deposit. */
export const L1_INFO_DEPOSITOR = hexToBytes('0xdeaddeaddeaddeaddeaddeaddeaddeaddead0001')
export const GAS_PRICE_ORACLE = hexToBytes('0x420000000000000000000000000000000000000f')
export const SEQUENCER_FEE_VAULT = hexToBytes('0x4200000000000000000000000000000000000011')
export const L1_BLOCK = hexToBytes('0x4200000000000000000000000000000000000015')
export const BASE_FEE_VAULT = hexToBytes('0x4200000000000000000000000000000000000019')
export const L1_FEE_VAULT = hexToBytes('0x420000000000000000000000000000000000001a')
export const OPERATOR_FEE_VAULT = hexToBytes('0x420000000000000000000000000000000000001b')
