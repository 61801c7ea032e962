/**
 * The blocks the interpreter's differential tests build: src/evm/patches/block-building-frames.test.ts's
 * sequencer, and reexecution-frames.test.ts's leader, whose flashblocks a follower re-executes. Creations, ETH and
 * ERC-20 transfers, reverts, out of gas, nested and delegated calls, slots cleared with refunds (one set again a
 * block later), logs, user deposits (one reverting), an access list, a call with value and a CREATE handed back,
 * an empty block.
 *
 * The programs (frame-programs.ts) are deployed by creations, which run on @ethereumjs: the interpreter runs
 * calls only.
 */
import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { encodeDeployData, encodeFunctionData, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { Chain } from '../../src/chain/chain.js'
import { encodeDeposit } from '../../src/domain/deposit-encoding.js'
import type { BlockRecord, Flashblock } from '../../src/domain/types.js'
import { testToken } from './fixtures.js'
import { CALLER, DELEGATOR, KV, KV_REVERT, LOOP, plain, VALUE_CALLER } from './frame-programs.js'

const PROGRAMS = {
  kv: KV,
  kvRevert: KV_REVERT,
  loop: LOOP,
  caller: CALLER,
  delegator: DELEGATOR,
  valueCaller: VALUE_CALLER,
}
type Program = keyof typeof PROGRAMS
const names = Object.keys(PROGRAMS) as Program[]

/** Where block 1 deployed `name`: the token first, then the programs in PROGRAMS' order (c0 .. c6). */
export const deployed = (at: Record<string, Hex>, name: Program | 'token') =>
  at[`c${name === 'token' ? 0 : names.indexOf(name) + 1}`]

/** Init code returning `runtime` (< 256 bytes): CODECOPY of what follows these 9 bytes, RETURN. */
export const deployCode = (runtime: string) =>
  `0x60${(runtime.length / 2).toString(16).padStart(2, '0')}8060095f395ff3${runtime}` as Hex
const word = (v: bigint | string) => (typeof v === 'bigint' ? v.toString(16) : v.replace(/^0x/, '')).padStart(64, '0')
const hex = (...parts: string[]) => `0x${parts.join('')}` as Hex
const DEPOSITOR = hexToBytes('0x00000000000000000000000000000000000d0d0d')
/** The KV program's slot set to 7 in block 2 and cleared in block 3 (from committed state), and one never set. */
export const CLEARED_SLOT = 1n
const NEVER_SET_SLOT = 5n

export interface Built {
  flashblocks: Flashblock[]
  blocks: BlockRecord[]
  /** The addresses the creations gave (`deployed` names them). */
  at: Record<string, Hex>
}

/**
 * Blocks of transactions, each block's list made from the addresses deployed so far (the same on both chains:
 * same senders, same nonces) and signed for the chain; each block built in two flashblocks, then sealed.
 */
export async function build(
  chain: Chain,
  blocks: ((at: Record<string, Hex>) => Promise<Uint8Array[]>)[],
): Promise<Built> {
  const at: Record<string, Hex> = {}
  const built: Built = { flashblocks: [], blocks: [], at }
  for (const txsOf of blocks) {
    const txs = await txsOf(at)
    const half = Math.ceil(txs.length / 2)
    for (const part of [txs.slice(0, half), txs.slice(half)]) {
      for (const raw of part) await chain.sendRawTransaction(raw)
      built.flashblocks.push(await chain.buildNow())
    }
    const block = await chain.sealNow()
    built.blocks.push(block)
    // the addresses the block's creations gave, in the order they ran
    for (const r of block.receipts)
      if (r.contractAddress && r.status === 1 && r.depositNonce === undefined)
        at[`c${Object.keys(at).length}`] = bytesToHex(r.contractAddress) as Hex
  }
  return built
}

/** The scenario, for one chain: signed by its dev accounts, with their nonces counted here. */
export function scenario(chain: Chain) {
  const signers = chain.accounts.map((a) => privateKeyToAccount(bytesToHex(a.privateKey) as Hex))
  const nonces = signers.map(() => 0)
  const chainId = Number(chain.chainId)
  const fee = { maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 10n ** 9n }
  const send = async (
    from: number,
    to: Hex | undefined,
    data: Hex = '0x',
    extra: { gas?: bigint; value?: bigint; accessList?: { address: Hex; storageKeys: Hex[] }[] } = {},
  ) =>
    hexToBytes(
      await signers[from].signTransaction({
        type: extra.accessList ? 'eip2930' : 'eip1559',
        chainId,
        nonce: nonces[from]++,
        to,
        data,
        gas: extra.gas ?? 300_000n,
        value: extra.value ?? 0n,
        ...(extra.accessList ? { gasPrice: 10n ** 10n, accessList: extra.accessList } : fee),
      } as never),
    )
  const token = (functionName: string, args: unknown[] = []) =>
    encodeFunctionData({ abi: testToken.abi, functionName, args } as never)
  const holder = (n: number) => `0x${n.toString(16).padStart(40, '0')}` as Hex
  const deposit = (to: Hex, data: Hex, nonce: number) =>
    encodeDeposit({
      sourceHash: hexToBytes(hex(word(BigInt(nonce + 1)))),
      from: DEPOSITOR,
      to: hexToBytes(to),
      mint: 10n ** 18n,
      value: 0n,
      gas: 200_000n,
      isSystemTx: false,
      data: hexToBytes(data),
    })
  return [
    // block 1: creations (on @ethereumjs), an ETH transfer
    async () => [
      await send(0, undefined, encodeDeployData({ ...testToken, args: [10n ** 24n] } as never), { gas: 3_000_000n }),
      ...(await Promise.all(names.map(async (name) => send(1, undefined, deployCode(PROGRAMS[name]))))),
      await send(2, signers[3].address, '0x', { gas: 21_000n, value: 10n ** 15n }),
    ],
    // block 2: ERC-20 transfers (new and old holders), storage writes, logs, reverts, out of gas, nested calls
    async (at: Record<string, Hex>) => [
      ...(await Promise.all(
        [1, 2, 3].map((n) => send(0, deployed(at, 'token'), token('transfer', [holder(0xa0 + n), 5n]))),
      )),
      await send(0, deployed(at, 'token'), token('transfer', [signers[4].address, 1000n])),
      await send(4, deployed(at, 'token'), token('transfer', [holder(0xa1), 1n])),
      // more than the sender holds: "insufficient balance"
      await send(5, deployed(at, 'token'), token('transfer', [holder(0xa1), 1n])),
      await send(5, deployed(at, 'token'), token('increment')),
      await send(6, deployed(at, 'token'), token('failEmpty')),
      await send(6, deployed(at, 'token'), token('onlyZero')),
      await send(2, deployed(at, 'kv'), hex(word(CLEARED_SLOT), word(7n))),
      await send(2, deployed(at, 'kv'), hex(word(2n), word(9n))),
      await send(3, deployed(at, 'kvRevert'), hex(word(1n), word(8n))),
      await send(3, deployed(at, 'loop'), '0x', { gas: 60_000n }),
      await send(7, deployed(at, 'caller'), hex(word(deployed(at, 'kv')), word(3n), word(11n))),
      await send(7, deployed(at, 'delegator'), hex(word(deployed(at, 'kv')), word(4n), word(12n))),
      await send(8, deployed(at, 'caller'), hex(word(deployed(at, 'token')), token('increment').slice(2))),
    ],
    // block 3: slots cleared (refunds), set again, a read; a deposit into the KV program; a value call (handed back);
    // an access list (handed back); the token's child creation (handed back at CREATE)
    async (at: Record<string, Hex>) => [
      // deposits first: the pool holds them for a block's first flashblock
      deposit(deployed(at, 'kv'), hex(word(9n), word(99n)), 0),
      await send(2, deployed(at, 'kv'), hex(word(CLEARED_SLOT), word(0n))),
      await send(2, deployed(at, 'kv'), hex(word(2n), word(0n))),
      await send(2, deployed(at, 'kv'), hex(word(2n), word(5n))),
      await send(3, deployed(at, 'kv'), hex(word(CLEARED_SLOT))),
      await send(4, deployed(at, 'valueCaller'), hex(word(holder(0xbeef))), { value: 10n }),
      await send(5, deployed(at, 'kv'), hex(word(6n), word(6n)), {
        accessList: [{ address: deployed(at, 'kv'), storageKeys: [hex(word(6n))] }],
      }),
      await send(6, deployed(at, 'token'), token('spawn'), { gas: 1_000_000n }),
    ],
    // block 4: the token again, after the clears; a deposit that reverts; KV's slot 1 (7 since block 2, cleared
    // in block 3) set again beside slot 5, never set: both SSTOREs cost a zero-to-nonzero write only if block
    // 3's clear reached the committed state (block-building-frames.test.ts holds them equal)
    async (at: Record<string, Hex>) => [
      deposit(deployed(at, 'kvRevert'), hex(word(9n), word(1n)), 1),
      await send(0, deployed(at, 'token'), token('transfer', [holder(0xa1), 0n])),
      await send(4, deployed(at, 'token'), token('transfer', [holder(0xa0), 999n])),
      await send(2, deployed(at, 'kv'), hex(word(CLEARED_SLOT), word(5n))),
      await send(2, deployed(at, 'kv'), hex(word(NEVER_SET_SLOT), word(5n))),
    ],
    // block 5: nothing but the L1-info deposit
    async () => [],
  ]
}

/** A flashblock as data, without what each build draws anew (its payload id) or measures (its timing). */
export function comparable(flashblock: Flashblock): unknown {
  const { payloadId: _id, timing: _timing, ...rest } = flashblock
  return plain(rest)
}
