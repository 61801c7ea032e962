/**
 * Ports for the child processes tests start (anvil, redis-server, the service as a process): freePort() for one
 * that a test only needs unused (a refused connection), spawnOnFreePort() for a child that must hold it.
 */
export { freePort, spawnOnFreePort } from '../../scripts/cluster/ports.js'
