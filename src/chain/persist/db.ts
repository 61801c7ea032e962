/**
 * Opening the data directory: LevelDB through classic-level. LevelDB's LOCK file is an OS lock the
 * kernel drops when the process dies (kill -9 included), so a second process is refused and a crashed
 * one never leaves a stale lock. The format record names the layout version and the chain id; a
 * directory written for another chain or by an incompatible version is refused, never reused.
 */
import { accessSync, constants, mkdirSync } from 'node:fs'
import type { ClassicLevel } from 'classic-level'
import { classicLevel } from '../../load-on-use.js'
import { META_KEY } from './keys.js'

/**
 * Bump when the key layout or a record's encoding changes incompatibly. 3: blocks store their receipts' OP fees
 * by block (codec.ts); a version that reads only 2 would misread such a block, so it must refuse the directory.
 */
const DATA_FORMAT_VERSION = 3
/**
 * Formats this version reads and marks as its own on open (it writes its blocks in its own form from then on):
 * 2's blocks differ from 3's only in their receipts' layout, which codec.ts reads in both.
 */
const UPGRADED_FORMATS = new Set([2])

export type Level = ClassicLevel<Uint8Array, Uint8Array>

/** A data directory the service cannot use; the message says which and why. */
export class DataDirError extends Error {
  override name = 'DataDirError'
}

interface FormatRecord {
  version: number
  chainId: number
}

export async function openDataDir(dir: string, chainId: number): Promise<{ db: Level; fresh: boolean }> {
  try {
    mkdirSync(dir, { recursive: true })
    accessSync(dir, constants.R_OK | constants.W_OK | constants.X_OK)
  } catch (err) {
    throw new DataDirError(`--data-dir ${dir} is not a readable and writable directory (${(err as Error).message})`)
  }
  const db: Level = new (classicLevel().ClassicLevel)(dir, { keyEncoding: 'view', valueEncoding: 'view' })
  try {
    await db.open()
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause
    if (cause?.code === 'LEVEL_LOCKED')
      throw new DataDirError(`--data-dir ${dir} is in use by another process (its LOCK is held); stop it first`)
    throw new DataDirError(`--data-dir ${dir} cannot be opened: ${cause?.message ?? (err as Error).message}`)
  }
  const stored = db.getSync(META_KEY)
  if (stored === undefined) {
    await writeFormat(db, { version: DATA_FORMAT_VERSION, chainId })
    return { db, fresh: true }
  }
  const format = JSON.parse(new TextDecoder().decode(stored)) as FormatRecord
  if (UPGRADED_FORMATS.has(format.version) && format.chainId === chainId) {
    format.version = DATA_FORMAT_VERSION
    await writeFormat(db, format)
  }
  if (format.version !== DATA_FORMAT_VERSION) {
    await db.close()
    throw new DataDirError(
      `--data-dir ${dir} holds data format ${format.version}; this version reads format ${DATA_FORMAT_VERSION}`,
    )
  }
  if (format.chainId !== chainId) {
    await db.close()
    throw new DataDirError(
      `--data-dir ${dir} holds chain ${format.chainId}, not chain ${chainId}; use another directory`,
    )
  }
  return { db, fresh: false }
}

const writeFormat = (db: Level, format: FormatRecord) =>
  db.put(META_KEY, new TextEncoder().encode(JSON.stringify(format)), { sync: true })
