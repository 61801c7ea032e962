import { CLIENT_VERSION } from '../../version.js'
import type { Handler } from '../context.js'

/** web3_clientVersion: `preconf-rpc/v<version>/<platform>-<arch>/node<major>`, geth's layout. */
export const web3_clientVersion: Handler<'web3_clientVersion'> = () => CLIENT_VERSION
