import { data, parseData } from '../../format/hex.js'
import type { Handler } from '../context.js'

/** eth_sendRawTransaction: pool admission; rejections carry geth's texts (-32000), which clients match. */
export const eth_sendRawTransaction: Handler<'eth_sendRawTransaction'> = async ([raw], ctx) =>
  data(await ctx.submit.sendRawTransaction(parseData(raw)))
