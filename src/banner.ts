/**
 * What the CLI prints once the service listens: where each endpoint is, so a newcomer can copy a URL.
 */
import { bytesToHex } from '@ethereumjs/util'
import type { RunningFollower, RunningService } from './service.js'
import { SERVICE_NAME, SERVICE_VERSION } from './version.js'

function endpointLines(service: RunningService | RunningFollower): string[] {
  const { config } = service
  const mode = config.upstream
    ? `following ${config.upstream} (chain id ${config.chainId})${config.upstreamFeed ? `, flashblocks from ${config.upstreamFeed}` : ', no flashblocks feed: pending = latest'}`
    : `${config.network} (chain id ${config.chainId}) · block every ${config.blockTimeMs / 1000} s, flashblock every ${config.flashblockIntervalMs} ms`
  return [
    `${SERVICE_NAME} v${SERVICE_VERSION} · ${mode}`,
    '',
    `  general endpoint      POST ${service.url}`,
    `  preconfirmations      POST ${service.flashblocksUrl}`,
    `  WebSocket             ${service.wsUrl} and ${service.wsUrl}flashblocks`,
    `  raw flashblocks feed  ${service.wsUrl}ws/flashblocks`,
  ]
}

/** Like anvil: every dev account with its private key, so a wallet or script can import one. */
function accountLines(service: RunningService): string[] {
  const { config, chain } = service
  if (!config.devAccounts) return ['Dev accounts are off (--no-dev-accounts).']
  const okb = config.balance / 10n ** 18n
  return [
    `Dev accounts (${okb} OKB each), mnemonic "${config.mnemonic}":`,
    ...chain.accounts.map((a, i) => `  (${i}) ${bytesToHex(a.address)}  key ${bytesToHex(a.privateKey)}`),
  ]
}

export function banner(service: RunningService | RunningFollower): string {
  const sections = [
    endpointLines(service),
    'chain' in service
      ? accountLines(service)
      : [`Sends are forwarded to ${service.config.sequencer ?? service.config.upstream}; no dev accounts here.`],
  ]
  return `${sections.map((lines) => lines.join('\n')).join('\n\n')}\n\nPress Ctrl+C to stop.\n`
}
