import { address } from '../../format/hex.js'
import type { Handler } from '../context.js'

/** eth_accounts: the unlocked dev accounts (none with --no-dev-accounts), then the impersonated addresses, as anvil. */
export const eth_accounts: Handler<'eth_accounts'> = (_params, ctx) => {
  const own = ctx.config.devAccounts ? ctx.accounts.all.map((account) => address(account.address)) : []
  const impersonated = (ctx.dev?.impersonated() ?? []).map((bytes) => address(bytes))
  return [...new Set([...own, ...impersonated])]
}
