/** Where the embedded chain reports what it does (sealed blocks, restores, imports) and what went wrong. */
export interface ChainLogger {
  info(message: string): void
  warn(message: string): void
}

export const silent: ChainLogger = { info: () => {}, warn: () => {} }
export const consoleLogger: ChainLogger = { info: (m) => console.log(m), warn: (m) => console.warn(m) }

/** A logger whose info lines can be turned off and on (anvil_setLoggingEnabled); warnings always pass. */
export class SwitchableLogger implements ChainLogger {
  enabled = true

  constructor(private readonly target: ChainLogger) {}

  info(message: string): void {
    if (this.enabled) this.target.info(message)
  }

  warn(message: string): void {
    this.target.warn(message)
  }
}
