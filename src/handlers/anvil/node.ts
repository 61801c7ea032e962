/** About the dev node and the whole chain: anvil_reset, anvil_nodeInfo, anvil_metadata, anvil_setLoggingEnabled. */
import { data, quantity } from '../../format/hex.js'
import { SERVICE_NAME, SERVICE_VERSION } from '../../version.js'
import type { Handler } from '../context.js'
import { devNode, optionalQuantity, U64_MAX } from '../dev-node.js'
import { nextBaseFee, suggestedTip } from '../fee-params.js'

export const anvil_reset: Handler<'anvil_reset'> = async ([options], ctx) => {
  const forking = options?.forking
  if (forking) {
    const jsonRpcUrl = forking.jsonRpcUrl ?? undefined
    const blockNumber = optionalQuantity(forking.blockNumber, 0, 'options.forking.blockNumber', U64_MAX)
    await devNode(ctx).reset({
      ...(jsonRpcUrl !== undefined ? { jsonRpcUrl } : {}),
      ...(blockNumber !== undefined ? { blockNumber } : {}),
    })
  } else await devNode(ctx).reset()
  return null
}

export const anvil_nodeInfo: Handler<'anvil_nodeInfo'> = async (_params, ctx) => {
  devNode(ctx)
  const latest = await ctx.resolver.latest()
  const baseFee = await nextBaseFee(ctx)
  return {
    currentBlockNumber: quantity(latest.number),
    currentBlockTimestamp: Number(latest.header.timestamp),
    currentBlockHash: data(latest.hash),
    hardFork: ctx.common.hardfork(),
    transactionOrder: 'fees',
    environment: {
      baseFee: quantity(baseFee),
      chainId: ctx.config.chainId,
      gasLimit: quantity(latest.header.gasLimit),
      gasPrice: quantity(baseFee + (await suggestedTip(ctx))),
    },
    forkConfig: { forkUrl: null, forkBlockNumber: null, forkRetryBackoff: null },
    network: 'optimism',
  }
}

export const anvil_metadata: Handler<'anvil_metadata'> = async (_params, ctx) => {
  const dev = devNode(ctx)
  const latest = await ctx.resolver.latest()
  return {
    clientVersion: `${SERVICE_NAME}/${SERVICE_VERSION}`,
    chainId: ctx.config.chainId,
    instanceId: data(dev.instanceId),
    latestBlockNumber: Number(latest.number),
    latestBlockHash: data(latest.hash),
    forkedNetwork: null,
    snapshots: Object.fromEntries(
      dev.snapshots().map((s) => [quantity(s.id), [Number(s.number), data(s.hash)] as [number, `0x${string}`]]),
    ),
  }
}

export const anvil_setLoggingEnabled: Handler<'anvil_setLoggingEnabled'> = ([enabled], ctx) => {
  devNode(ctx).setLoggingEnabled(enabled)
  return null
}
