/**
 * The flags of the embedded chain (its network, cadence, block parameters, pool, where it starts from and
 * where it is kept) and of its dev node (the accounts it holds keys of, the methods that edit it unsigned).
 */
import { GASLESS_MAX_GAS_LIMIT, MEMORY_HISTORY_BLOCKS } from '../../limits.js'
import { CHAIN_IDS, CONFIG_DEFAULTS as d, networkDefaults, WEI_PER_OKB } from '../defaults.js'
import { CHAIN, type Flag, toggle, value } from './kinds.js'
import { blocksOrAll, gaslessTargets, integer, name, okb, seconds, text, wholeNumber, words } from './values.js'

const mainnet = networkDefaults('mainnet')
const testnet = networkDefaults('testnet')

export const CHAIN_SETTING_FLAGS = {
  network: value(
    'network',
    '<name>',
    name,
    `mainnet (chain id ${CHAIN_IDS.mainnet}) or testnet (chain id ${CHAIN_IDS.testnet}) (default ${d.network}); brings X Layer's gas limit, genesis base fee and EIP-1559 parameters`,
    CHAIN,
  ),
  'block-time': value(
    'blockTimeMs',
    '<seconds>',
    seconds,
    `seal a block this often (default ${d.blockTimeMs / 1000})`,
    CHAIN,
  ),
  'flashblock-interval': value(
    'flashblockIntervalMs',
    '<ms>',
    integer,
    `publish a preconfirmation increment this often (default ${d.flashblockIntervalMs})`,
    CHAIN,
  ),
  'gas-limit': value(
    'gasLimit',
    '<gas>',
    wholeNumber,
    `block gas limit (default ${mainnet.gasLimit} on mainnet, ${testnet.gasLimit} on testnet)`,
    CHAIN,
  ),
  'eip1559-denominator': value(
    'eip1559Denominator',
    '<n>',
    wholeNumber,
    `base fee change denominator every block's extraData carries (default ${mainnet.eip1559Denominator})`,
    CHAIN,
  ),
  'eip1559-elasticity': value(
    'eip1559Elasticity',
    '<n>',
    wholeNumber,
    `gas limit / gas target, carried in extraData (default ${mainnet.eip1559Elasticity})`,
    CHAIN,
  ),
  'min-base-fee': value(
    'minBaseFee',
    '<wei>',
    wholeNumber,
    `Jovian: the next base fee never goes below this (default ${d.minBaseFee})`,
    CHAIN,
  ),
  'gasless-block-gas-limit': value(
    'gaslessBlockGasLimit',
    '<gas>',
    wholeNumber,
    `gas the gasless (zero-priced, whitelisted) transactions of one block may use; 0 = no budget (default ${d.gaslessBlockGasLimit}, as xlayer-reth)`,
    CHAIN,
  ),
  'gasless-targets': value(
    'gaslessTargets',
    '<list>',
    gaslessTargets,
    `address[:gas],... calls to these are gasless for any sender: the gasless whitelist predeploy starts with them (gas: the most one call may ask for, default ${GASLESS_MAX_GAS_LIMIT})`,
    CHAIN,
  ),
  'txpool-max-per-sender': value(
    'txpoolMaxPerSender',
    '<n>',
    integer,
    `transactions one sender may hold in the pool (default ${d.txpoolMaxPerSender})`,
    CHAIN,
  ),
  'txpool-max-total': value(
    'txpoolMaxTotal',
    '<n>',
    integer,
    `transactions the pool holds in all (default ${d.txpoolMaxTotal})`,
    CHAIN,
  ),
  'data-dir': value(
    'dataDir',
    '<dir>',
    text,
    'keep the chain (blocks, state, preconfirmations, pool) in this directory and continue it after a restart (default: in memory, lost at exit)',
  ),
  'dump-state': value(
    'dumpState',
    '<file>',
    text,
    "at exit, write the head's accounts, code and storage to this JSON file (anvil's --dump-state format)",
    CHAIN,
  ),
  'load-state': value(
    'loadState',
    '<file>',
    text,
    "start a fresh chain with the accounts of such a file (ours or anvil's)",
    CHAIN,
  ),
  history: value(
    'history',
    '<n|all>',
    blocksOrAll,
    `keep the state of the last n blocks only, or all; older state reads get "missing trie node" (default: ${MEMORY_HISTORY_BLOCKS} in memory, as geth; all in --data-dir; blocks, evm_snapshot's and anvil_reset's states are always kept)`,
    CHAIN,
  ),
  genesis: value(
    'genesis',
    '<file>',
    text,
    'start from a geth genesis.json (any chain id and fork schedule; plain Ethereum rules, no OP Stack deposits or fees) instead of the dev genesis',
    CHAIN,
  ),
  import: value(
    'importFile',
    '<file>',
    text,
    'execute these RLP blocks (as `geth import`) on top of --genesis at start',
    CHAIN,
  ),
  'no-mining': toggle('mining', false, 'build no blocks: the head stays the last imported block', CHAIN),
} satisfies Record<string, Flag>

export const DEV_NODE_FLAGS = {
  mnemonic: value('mnemonic', '<phrase>', words, `BIP-39 phrase of the dev accounts (default: "${d.mnemonic}")`, CHAIN),
  accounts: value('accounts', '<n>', integer, `number of dev accounts (default ${d.accounts})`, CHAIN),
  balance: value(
    'balance',
    '<OKB>',
    okb,
    `genesis balance of each dev account, in OKB (default ${d.balance / WEI_PER_OKB})`,
    CHAIN,
  ),
  'no-dev-accounts': toggle('devAccounts', false, 'turn eth_sendTransaction and eth_sign off (no keys held)'),
  'no-dev-methods': toggle(
    'devMethods',
    false,
    'turn the dev-node methods off (anvil_*, evm_*, hardhat_*: state edits, snapshots, time travel, impersonation; default: on when --host is loopback)',
  ),
  'dev-methods': toggle(
    'devMethods',
    true,
    "serve the dev-node methods on a non-loopback --host too (anyone who reaches the port can then change the chain's state without a key)",
  ),
} satisfies Record<string, Flag>
