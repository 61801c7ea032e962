import { forkConfigs, type ForkConfig } from '../../chain/fork-config.js'
import { address, data, quantity } from '../../format/hex.js'
import type { ForkConfig as WireForkConfig } from '../../../generated/types.js'
import type { Handler } from '../context.js'
import { opForkSchedule, presetOfChain } from '../../opstack/networks.js'
import { isOpStackChain } from '../../opstack/op-chain.js'

function wire(config: ForkConfig): WireForkConfig {
  const addresses = (map: Map<string, Uint8Array>) => Object.fromEntries([...map].map(([k, v]) => [k, address(v)]))
  return {
    activationTime: Number(config.activationTime),
    ...(config.blobSchedule && {
      blobSchedule: {
        target: Number(config.blobSchedule.target),
        max: Number(config.blobSchedule.max),
        baseFeeUpdateFraction: Number(config.blobSchedule.baseFeeUpdateFraction),
      },
    }),
    chainId: quantity(config.chainId),
    forkId: data(config.forkId),
    precompiles: addresses(config.precompiles),
    systemContracts: addresses(config.systemContracts),
  }
}

/**
 * eth_config (EIP-7910): the fork rules in force at the latest block, and the next and last scheduled forks; on
 * X Layer's chain ids the OP Stack forks of its schedule count (Jovian's time is the current fork's).
 */
export const eth_config: Handler<'eth_config'> = async (_params, ctx) => {
  const [head, genesis] = await Promise.all([ctx.resolver.latest(), ctx.resolver.block(0n)])
  const preset = isOpStackChain(ctx.common) ? presetOfChain(ctx.common.chainId()) : undefined
  const opForks = preset ? opForkSchedule(preset) : []
  const { current, next, last } = forkConfigs(ctx.common, genesis!.hash, head.number, head.header.timestamp, opForks)
  return { current: wire(current), next: next ? wire(next) : null, last: last ? wire(last) : null }
}
