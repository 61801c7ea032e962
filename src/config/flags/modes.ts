/**
 * The flags of the OP Stack fees (the simulated L1 every block's L1-info deposit carries) and of the two
 * other ways to run: fork mode (the embedded chain starts on another node's state) and follower mode.
 */
import { CONFIG_DEFAULTS as d } from '../defaults.js'
import { type Flag, l1, toggle, value } from './kinds.js'
import { blockNumber, integer, text } from './values.js'

const l1Defaults = d.l1Settings

export const FEE_FLAGS = {
  'no-op-fees': toggle(
    'opFees',
    false,
    'charge gas only (default: user transactions also pay the L1 data fee and the operator fee into the fee vaults)',
  ),
  'l1-base-fee': l1(
    'l1BaseFee',
    '<wei>',
    `simulated L1 base fee in L1-info deposits (default ${l1Defaults.l1BaseFee})`,
  ),
  'l1-blob-base-fee': l1('blobBaseFee', '<wei>', `simulated L1 blob base fee (default ${l1Defaults.blobBaseFee})`),
  'l1-fee-scalar': l1('baseFeeScalar', '<n>', `L1 base fee scalar (default ${l1Defaults.baseFeeScalar})`),
  'l1-blob-fee-scalar': l1(
    'blobBaseFeeScalar',
    '<n>',
    `L1 blob base fee scalar (default ${l1Defaults.blobBaseFeeScalar})`,
  ),
  'operator-fee-scalar': l1(
    'operatorFeeScalar',
    '<n>',
    `operator fee scalar, 1e-6 units per gas (default ${l1Defaults.operatorFeeScalar})`,
  ),
  'operator-fee-constant': l1(
    'operatorFeeConstant',
    '<wei>',
    `operator fee per transaction (default ${l1Defaults.operatorFeeConstant})`,
  ),
  'da-footprint-gas-scalar': l1(
    'daFootprintGasScalar',
    '<n>',
    `Jovian DA footprint gas per estimated byte; a block's footprint may not pass its gas limit (default ${l1Defaults.daFootprintGasScalar}; 0 means that default)`,
  ),
} satisfies Record<string, Flag>

export const FORK_FLAGS = {
  'fork-url': value(
    'forkUrl',
    '<url>',
    text,
    'HTTP JSON-RPC of the node to fork; its chain id, blocks and state up to the fork block',
  ),
  'fork-block-number': value(
    'forkBlockNumber',
    '<n>',
    blockNumber,
    "the block to fork at (default: the node's latest)",
  ),
} satisfies Record<string, Flag>

export const FOLLOWER_FLAGS = {
  upstream: value('upstream', '<url>', text, 'HTTP JSON-RPC of the upstream node; chain id and blocks come from it'),
  'upstream-feed': value(
    'upstreamFeed',
    '<url>',
    text,
    'its raw flashblocks feed (ws://.../ws/flashblocks); without it pending = latest',
  ),
  sequencer: value('sequencer', '<url>', text, 'where eth_sendRawTransaction is forwarded (default: --upstream)'),
  'flashblocks-idle-timeout': value(
    'flashblocksIdleTimeoutMs',
    '<ms>',
    integer,
    `feed silence that drops pending (default ${d.flashblocksIdleTimeoutMs})`,
  ),
  'upstream-timeout': value(
    'upstreamTimeoutMs',
    '<ms>',
    integer,
    `how long one request to --upstream or --sequencer, or the upstream's WebSocket handshake, may take (default ${d.upstreamTimeoutMs})`,
  ),
  'follower-cache-blocks': value(
    'followerCacheBlocks',
    '<n>',
    integer,
    `recent blocks kept in full; older ones are read upstream (default ${d.followerCacheBlocks})`,
  ),
} satisfies Record<string, Flag>
