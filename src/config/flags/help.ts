/**
 * --help, written from the flag table: its sections in order, one entry per flag, the text wrapped under a
 * column (a usage wider than the column starts its text on the next line, so the column never moves).
 */
import type { Flag } from './kinds.js'
import { FLAG_SECTIONS } from './table.js'

const COLUMN = 33
const WIDTH = 116

function wrap(words: string[], width: number): string[] {
  const lines: string[] = []
  for (const word of words) {
    const last = lines.at(-1)
    if (last !== undefined && last.length + 1 + word.length <= width) lines[lines.length - 1] = `${last} ${word}`
    else lines.push(word)
  }
  return lines
}

function entry(name: string, flag: Flag): string {
  const short = flag.short ? `-${flag.short}, ` : '    '
  const usage = `  ${short}--${name}${'arg' in flag ? ` ${flag.arg}` : ''}`
  const lines = wrap(flag.help.split(' '), WIDTH - COLUMN)
  const first = usage.length < COLUMN ? [usage.padEnd(COLUMN) + lines.shift()] : [usage]
  return [...first, ...lines.map((line) => ' '.repeat(COLUMN) + line)].join('\n')
}

function helpText(): string {
  const parts = [
    'Usage: npx preconf-rpc [flags]     (in a clone: npm start -- [flags])',
    '',
    'Serves the preconf-rpc JSON-RPC endpoints (/ and /flashblocks) over an embedded chain.',
  ]
  for (const [title, flags] of FLAG_SECTIONS) {
    parts.push('', title)
    for (const [name, flag] of Object.entries(flags)) parts.push(entry(name, flag))
  }
  return `${parts.join('\n')}\n`
}

export const HELP = helpText()
