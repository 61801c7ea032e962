/**
 * The unlocked dev accounts behind eth_sendTransaction and eth_sign. Any other address — or every
 * address with --no-dev-accounts — answers geth's `unknown account`, as geth without that key unlocked.
 */
import type { DevAccount } from '../domain/types.js'
import { UnknownAccountError } from '../errors.js'
import { parseData } from '../format/hex.js'
import { keyOf } from '../domain/block-record.js'
import type { HandlerContext } from './context.js'

export function unlockedAccount(ctx: HandlerContext, address: string): DevAccount {
  const key = keyOf(parseData(address))
  const account = ctx.config.devAccounts ? ctx.accounts.all.find((a) => keyOf(a.address) === key) : undefined
  if (!account) throw new UnknownAccountError()
  return account
}
