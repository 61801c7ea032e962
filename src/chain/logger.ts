/** Where the embedded chain reports what it does (sealed blocks, restores, imports) and what went wrong. */
export interface ChainLogger {
  info(message: string): void
  warn(message: string): void
}

export const silent: ChainLogger = { info: () => {}, warn: () => {} }
export const consoleLogger: ChainLogger = { info: (m) => console.log(m), warn: (m) => console.warn(m) }
