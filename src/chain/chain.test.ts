import { Block } from '@ethereumjs/block'
import { Address, bytesToHex, hexToBytes } from '@ethereumjs/util'
import { createVM } from '@ethereumjs/vm'
import { getContractAddress } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterEach, describe, expect, test } from 'vitest'
import type { Chain } from './chain.js'
import { createChain } from './create-chain.js'
import { createChainCommon } from '../evm/chain-common.js'
import { memoryTrie } from '../evm/state-views.js'
import { createGenesis } from './genesis.js'
import { FlashBuilder } from '../evm/flash-builder.js'
import { signTx } from '../../test/support/sign-tx.js'
import type { BlockRecord, Flashblock } from '../domain/types.js'
import { defaultConfig } from '../config.js'
import { NETWORKS } from '../opstack/networks.js'

const ONE_OKB = 10n ** 18n
let chain: Chain | undefined

afterEach(async () => {
  await chain?.stop()
  chain = undefined
})

async function balanceAt(c: Chain, block: BlockRecord, address: Uint8Array): Promise<bigint> {
  return (await c.stateAt(block.header.stateRoot).getAccount(new Address(address)))?.balance ?? 0n
}

describe('the embedded chain', () => {
  test('funds the anvil dev accounts at genesis', async () => {
    chain = await createChain(defaultConfig({ quiet: true }))
    expect(bytesToHex(chain.accounts[0].address)).toBe('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266')
    expect(chain.accounts).toHaveLength(10)
    for (const account of chain.accounts) {
      expect(await balanceAt(chain, chain.store.latest(), account.address)).toBe(10_000n * ONE_OKB)
    }
    expect(chain.store.height).toBe(0n)
    expect(chain.chainId).toBe(196n)
  })

  test('honours the mnemonic, account count, balance and chain id options', async () => {
    chain = await createChain(
      defaultConfig({
        quiet: true,
        chainId: 1952,
        accounts: 3,
        balance: 5n * ONE_OKB,
        mnemonic: 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about',
      }),
    )
    expect(chain.accounts).toHaveLength(3)
    expect(bytesToHex(chain.accounts[0].address)).toBe('0x9858effd232b4033e47d90003d41ec34ecaeda94')
    expect(await balanceAt(chain, chain.store.latest(), chain.accounts[2].address)).toBe(5n * ONE_OKB)
    expect(chain.chainId).toBe(1952n)
  })

  test('shows a transfer in a flashblock before the block is sealed, then in the canonical block unchanged', async () => {
    chain = await createChain(defaultConfig({ quiet: true }))
    const c = chain
    const flashblocks: Flashblock[] = []
    c.on('flashblock', (fb) => flashblocks.push(fb))
    await c.buildNow() // index 0, empty
    const recipient = hexToBytes('0x000000000000000000000000000000000000beef')
    const hash = await c.sendRawTransaction(await signTx(c, 1, { nonce: 0, to: recipient, value: ONE_OKB }))
    const fb = await c.buildNow()
    expect(fb.index).toBe(1)
    expect(fb.base).toBeUndefined()
    expect(fb.diff.transactions).toHaveLength(1)
    expect(bytesToHex(fb.executed.txs[0].hash)).toBe(bytesToHex(hash))
    expect(c.store.height).toBe(0n)

    const preconfirmed = (await c.resolverFor('flashblocks').tx(hash))!
    expect(preconfirmed.pending).toBe(true)
    expect(preconfirmed.block.number).toBe(1n)
    expect(bytesToHex(preconfirmed.block.hash)).toBe(bytesToHex(fb.diff.blockHash))
    expect(preconfirmed.receipt.status).toBe(1)
    expect(preconfirmed.receipt.gasUsed).toBe(21_000n)
    expect(await c.resolverFor('general').tx(hash)).toBeUndefined()
    expect(await balanceAt(c, (await c.resolverFor('flashblocks').block('pending'))!, recipient)).toBe(ONE_OKB)
    expect(await balanceAt(c, (await c.resolverFor('general').block('pending'))!, recipient)).toBe(0n)

    const block = await c.sealNow()
    expect(block.number).toBe(1n)
    expect(bytesToHex(block.hash)).toBe(bytesToHex(fb.diff.blockHash))
    const canonical = (await c.resolverFor('general').tx(hash))!
    expect(canonical.pending).toBe(false)
    expect(canonical.index).toBe(preconfirmed.index)
    expect(canonical.receipt).toEqual(preconfirmed.receipt)
    expect(bytesToHex(canonical.tx.raw)).toBe(bytesToHex(preconfirmed.tx.raw))
    expect(flashblocks.map((f) => f.index)).toEqual([0, 1])
    expect(flashblocks[0].base?.blockNumber).toBe(1n)
    expect(bytesToHex(flashblocks[0].payloadId)).toBe(bytesToHex(flashblocks[1].payloadId))
  })

  test('computes real roots: replaying a sealed block on a fresh VM gives the same state and receipt roots', async () => {
    const genesisTimestamp = 1_700_000_000n
    chain = await createChain({ ...defaultConfig({ quiet: true }), genesisTimestamp })
    const c = chain
    const deployer = await signTx(c, 0, {
      nonce: 0,
      to: null,
      gas: 200_000n,
      // constructor: LOG1(topic 0x2a) then return runtime code that reverts
      data: hexToBytes('0x602a60006000a160058060126000396000f360006000fd'),
    })
    await c.sendRawTransaction(deployer)
    for (let i = 1; i < 5; i++) await c.sendRawTransaction(await signTx(c, i, { nonce: 0, value: BigInt(i) }))
    await c.buildNow()
    await c.sendRawTransaction(await signTx(c, 1, { nonce: 1, type: 'legacy', value: 7n }))
    await c.sendRawTransaction(await signTx(c, 2, { nonce: 1, type: 'eip2930', value: 8n }))
    await c.buildNow()
    const block = await c.sealNow()
    // the L1-info deposit opens the block
    expect(block.txs).toHaveLength(8)
    expect(block.receipts[0].type).toBe(0x7e)
    expect(block.logs).toHaveLength(1)
    // the CREATE address of dev account 0 at nonce 0
    expect(bytesToHex(block.receipts[1].contractAddress!)).toBe(
      getContractAddress({ from: bytesToHex(c.accounts[0].address), nonce: 0n }).toLowerCase(),
    )

    // a fresh VM from the same genesis, replaying the block's transactions with the builder a follower uses
    // (@ethereumjs's runBlock knows no OP Stack deposits or fees)
    const { gasLimit, genesisBaseFee: baseFee, genesisExtraData: extraData } = NETWORKS.mainnet
    const common = createChainCommon({ chainId: 196, gasLimit, baseFee })
    const fresh = await createGenesis({
      common,
      gasLimit,
      baseFee,
      extraData,
      gasless: { chainId: 196n, targets: [] },
      accounts: c.accounts,
      balance: 10_000n * ONE_OKB,
      timestamp: genesisTimestamp,
      trie: memoryTrie(common),
    })
    expect(bytesToHex(fresh.genesis.hash)).toBe(bytesToHex(c.store.genesis().hash))
    const vm = await createVM({ common, stateManager: fresh.stateManager })
    const h = block.header
    const replay = new FlashBuilder(vm, {
      base: {
        parentBeaconBlockRoot: h.parentBeaconBlockRoot!,
        parentHash: h.parentHash,
        feeRecipient: h.coinbase.bytes,
        prevRandao: h.mixHash,
        blockNumber: h.number,
        gasLimit: h.gasLimit,
        timestamp: h.timestamp,
        extraData: h.extraData,
        baseFeePerGas: h.baseFeePerGas!,
      },
      payloadId: new Uint8Array(8),
      opFees: c.options.opFees,
    })
    const { skipped } = await replay.flash(block.txs)
    expect(skipped).toEqual([])
    const result = replay.seal().header
    expect(bytesToHex(result.stateRoot)).toBe(bytesToHex(block.header.stateRoot))
    expect(bytesToHex(result.receiptTrie)).toBe(bytesToHex(block.header.receiptTrie))
    expect(bytesToHex(result.logsBloom)).toBe(bytesToHex(block.header.logsBloom))
    expect(result.gasUsed).toBe(block.header.gasUsed)
    expect(bytesToHex(result.transactionsTrie)).toBe(bytesToHex(block.header.transactionsTrie))
    // the block as @ethereumjs serializes it: size and hash agree
    const ethBlock = new Block(block.header, [], [], [], { common })
    expect(bytesToHex(ethBlock.hash())).toBe(bytesToHex(block.hash))
    expect(bytesToHex(result.hash())).toBe(bytesToHex(block.hash))
  })

  test('seals empty blocks with strictly increasing timestamps and a falling base fee', async () => {
    // Ethereum's EIP-1559 parameters in extraData (X Layer's 1e8 denominator barely moves the base fee)
    chain = await createChain({
      ...defaultConfig({ quiet: true, eip1559Denominator: 8n, eip1559Elasticity: 2n }),
      baseFee: 1_000_000_000n,
    })
    const a = await chain.sealNow()
    const b = await chain.sealNow()
    // nothing but the L1-info deposit: far under the gas target
    expect(a.txs).toHaveLength(1)
    expect(b.number).toBe(2n)
    expect(b.header.timestamp).toBeGreaterThan(a.header.timestamp)
    // block 1 follows the genesis' extraData (X Layer's: denominator 250, elasticity 6): 1 gwei - 1 gwei/250
    expect(a.header.baseFeePerGas).toBe(996_000_000n)
    expect(b.header.baseFeePerGas).toBeLessThan(a.header.baseFeePerGas!)
  })

  test('raises the base fee after a block that used more than half its gas', async () => {
    chain = await createChain(
      defaultConfig({ quiet: true, gasLimit: 30_000_000n, eip1559Denominator: 8n, eip1559Elasticity: 2n }),
    )
    // init code that loops until it runs out of gas: a failed creation that uses its whole gas limit
    await chain.sendRawTransaction(
      await signTx(chain, 0, { nonce: 0, to: null, gas: 16_000_000n, data: hexToBytes('0x5b600056') }),
    )
    const full = await chain.mine()
    expect(full.receipts[1].status).toBe(0)
    expect(full.header.gasUsed).toBe(16_000_000n + full.receipts[0].gasUsed)
    const next = await chain.sealNow()
    expect(next.header.baseFeePerGas).toBeGreaterThan(full.header.baseFeePerGas!)
  })

  test('keeps history: a balance reads at any past block', async () => {
    chain = await createChain(defaultConfig({ quiet: true }))
    const to = hexToBytes('0x00000000000000000000000000000000000c0ffe')
    for (let n = 0; n < 3; n++) {
      await chain.sendRawTransaction(await signTx(chain, 3, { nonce: n, to, value: 100n }))
      await chain.mine()
    }
    const general = chain.resolverFor('general')
    expect(await balanceAt(chain, (await general.block(0n))!, to)).toBe(0n)
    expect(await balanceAt(chain, (await general.block(1n))!, to)).toBe(100n)
    expect(await balanceAt(chain, (await general.block(2n))!, to)).toBe(200n)
    expect(await balanceAt(chain, (await general.block('latest'))!, to)).toBe(300n)
    expect(await (await general.state(1n))!.nonce(chain.accounts[3].address)).toBe(1n)
  })

  test('answers BLOCKHASH from the canonical store', async () => {
    chain = await createChain(defaultConfig({ quiet: true }))
    await chain.sealNow()
    // a contract creation whose init code stores BLOCKHASH(1) in slot 0: PUSH1 1 BLOCKHASH PUSH1 0 SSTORE STOP
    await chain.sendRawTransaction(
      await signTx(chain, 0, { nonce: 0, to: null, gas: 100_000n, data: hexToBytes('0x600140600055') }),
    )
    const block = await chain.mine()
    const created = new Address(block.receipts[1].contractAddress!)
    const slot = await chain.stateAt(block.header.stateRoot).getStorage(created, new Uint8Array(32))
    expect(bytesToHex(slot)).toBe(bytesToHex(chain.store.byNumber(1n)!.hash))
  })

  test('executes an EIP-7702 transaction and lets the delegated account keep sending', async () => {
    chain = await createChain(defaultConfig({ quiet: true }))
    const sender = privateKeyToAccount(bytesToHex(chain.accounts[5].privateKey) as `0x${string}`)
    const authority = privateKeyToAccount(bytesToHex(chain.accounts[6].privateKey) as `0x${string}`)
    const target = '0x000000000000000000000000000000000000dead'
    const authorization = await authority.signAuthorization({ address: target, chainId: 196, nonce: 0 })
    const raw = await sender.signTransaction({
      type: 'eip7702',
      chainId: 196,
      nonce: 0,
      to: authority.address,
      gas: 100_000n,
      maxFeePerGas: 10n ** 10n,
      maxPriorityFeePerGas: 10n ** 9n,
      authorizationList: [authorization],
    })
    const hash = await chain.sendRawTransaction(hexToBytes(raw))
    const block = await chain.mine()
    expect(bytesToHex(block.txs[1].hash)).toBe(bytesToHex(hash))
    expect(block.receipts[1].type).toBe(4)
    expect(block.receipts[1].status).toBe(1)
    const code = await chain.stateAt(block.header.stateRoot).getCode(new Address(chain.accounts[6].address))
    expect(bytesToHex(code)).toBe(`0xef0100${target.slice(2)}`)
    // a delegated account is still an EOA for admission; its nonce moved with the authorization
    await chain.sendRawTransaction(await signTx(chain, 6, { nonce: 1, value: 1n, to: chain.accounts[0].address }))
    expect((await chain.mine()).txs).toHaveLength(2)
  })
})
