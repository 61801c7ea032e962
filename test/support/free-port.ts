/** A loopback port nobody listens on right now, for a child process (anvil, redis-server) that needs one named. */
export { freePort } from '../../scripts/cluster/processes.js'
