import { randomBytes } from 'node:crypto'

/**
 * A subscription id as geth makes it: 16 random bytes as hex, leading zeros trimmed (rpc.NewID), so ids look
 * like quantities and clients that parse them as such (some do) never see `0x0...`.
 */
export function newSubscriptionId(): string {
  const hex = randomBytes(16).toString('hex').replace(/^0+/, '')
  return `0x${hex || '0'}`
}
