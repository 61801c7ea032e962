/**
 * The transfers an hour of traffic sends, signed once and kept: `count` transfers of 1 wei from dev accounts
 * 1-9 in turn (nonces from 0: a fresh chain whose only other sender is dev account 0), each to a fresh
 * address or to one of `recipients` in turn. Signing is ~1.8 ms a transfer here (noble's secp256k1), 180 000
 * of them ~5 minutes on one core: the workers share it, and the result is cached in the temp directory (a
 * fresh chain from the same genesis takes the same transactions, so every mode and every later run reuses them).
 *
 * As a child process (forked by signTransfersCached, the job in its argv): signs indexes i ≡ part (mod parts).
 */
import { fork } from 'node:child_process'
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Hex, parseGwei } from 'viem'
import { devAccount } from './lib.js'

type Job = { count: number; recipients: number; part: number; parts: number }

export const SENDERS = 9

/** Transfer `i`'s recipient: fresh addresses (recipients 0) or `recipients` of them in turn. */
const recipient = (i: number, recipients: number) =>
  `0xa9e0${((recipients ? i % recipients : i) + 1).toString(16).padStart(36, '0')}` as Hex

async function sign({ count, recipients, part, parts }: Job): Promise<string[]> {
  const accounts = Array.from({ length: SENDERS }, (_, k) => devAccount(k + 1))
  const raws: string[] = []
  for (let i = part; i < count; i += parts)
    raws.push(
      await accounts[i % SENDERS]!.signTransaction({
        chainId: 196,
        type: 'eip1559',
        nonce: Math.floor(i / SENDERS),
        to: recipient(i, recipients),
        value: 1n,
        gas: 21_000n,
        maxFeePerGas: parseGwei('10'),
        maxPriorityFeePerGas: 1_000_000n,
      }),
    )
  return raws
}

/** The `count` signed transfers in send order (each sender's nonces ascending), from the cache when there. */
export async function signTransfersCached(count: number, recipients: number): Promise<string[]> {
  const file = join(tmpdir(), `preconf-aging-txs-${count}-${recipients}.txt`)
  if (existsSync(file)) return readFileSync(file, 'utf8').split('\n')
  // transfer i is the same in every set (its sender, nonce and recipient depend on i alone): a longer one serves
  const longer = join(tmpdir(), `preconf-aging-txs-180000-${recipients}.txt`)
  if (count < 180_000 && existsSync(longer)) return readFileSync(longer, 'utf8').split('\n').slice(0, count)
  const parts = Math.max(1, availableParallelism())
  const shares = await Promise.all(
    Array.from(
      { length: parts },
      (_, part) =>
        new Promise<string[]>((resolve, reject) => {
          const job: Job = { count, recipients, part, parts }
          const child = fork(new URL(import.meta.url).pathname, [JSON.stringify(job)], {
            execArgv: ['--import', 'tsx'],
          })
          child.once('message', (raws) => resolve(raws as string[]))
          child.once('exit', (code) => code && reject(new Error(`signer ${part} exited with ${code}`)))
        }),
    ),
  )
  const raws = Array.from({ length: count }, (_, i) => shares[i % parts]![Math.floor(i / parts)]!)
  writeFileSync(`${file}.tmp`, raws.join('\n'))
  renameSync(`${file}.tmp`, file)
  return raws
}

if (process.send) process.send(await sign(JSON.parse(process.argv[2]!) as Job), () => process.disconnect())
