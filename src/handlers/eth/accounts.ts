import { address } from '../../format/hex.js'
import type { Handler } from '../context.js'

/** eth_accounts: the unlocked dev accounts; none with --no-dev-accounts. */
export const eth_accounts: Handler<'eth_accounts'> = (_params, ctx) =>
  ctx.config.devAccounts ? ctx.accounts.all.map((account) => address(account.address)) : []
