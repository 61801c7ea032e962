/**
 * What the CLI prints once the service listens: where each endpoint is, so a newcomer can copy a URL.
 */
import type { RunningService } from './service.js'
import { SERVICE_NAME, SERVICE_VERSION } from './version.js'

function endpointLines(service: RunningService): string[] {
  const { config } = service
  return [
    `${SERVICE_NAME} v${SERVICE_VERSION} · ${config.network} (chain id ${config.chainId}) · block every ${config.blockTimeMs / 1000} s, flashblock every ${config.flashblockIntervalMs} ms`,
    '',
    `  general endpoint      POST ${service.url}`,
    `  preconfirmations      POST ${service.flashblocksUrl}`,
    // WEBSOCKET: the WebSocket engineer adds `ws` lines here (service.wsUrl, /flashblocks, /ws/flashblocks)
  ]
}

export function banner(service: RunningService): string {
  const sections = [
    endpointLines(service),
    // ACCOUNTS: the chain engineer adds the dev-accounts section here (addresses, keys, balance, mnemonic)
  ]
  return `${sections.map((lines) => lines.join('\n')).join('\n\n')}\n\nPress Ctrl+C to stop.\n`
}
