/**
 * The service's name and version, read once from package.json so `web3_clientVersion`, the GET description
 * and the CLI banner never disagree with the published package.
 */
import { createRequire } from 'node:module'

// by the package's own name, so it resolves from src/ in a clone and from dist/src/ in an installed package
const pkg = createRequire(import.meta.url)('preconf-rpc/package.json') as { name: string; version: string }

export const SERVICE_NAME: string = pkg.name
export const SERVICE_VERSION: string = pkg.version

/** geth's shape `Geth/v1.14.0-stable/linux-amd64/go1.22`: `preconf-rpc/v0.1.0/linux-x64/node20`. */
export const CLIENT_VERSION = `${SERVICE_NAME}/v${SERVICE_VERSION}/${process.platform}-${process.arch}/node${process.versions.node.split('.')[0]}`
