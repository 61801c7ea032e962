import { describe, expect, test } from 'vitest'
import { InvalidParamsError } from '../errors.js'
import { failure, responseText, success } from './envelope.js'

const receipt = Object.freeze({
  blockHash: `0x${'ab'.repeat(32)}`,
  blockNumber: '0x12',
  contractAddress: null,
  logs: [{ address: `0x${'cd'.repeat(20)}`, topics: [`0x${'ef'.repeat(32)}`], data: '0x', removed: false }],
  status: '0x1',
  note: 'quote " backslash \\ and \u2028',
})

describe('reply text', () => {
  test('a frozen result is written exactly as JSON.stringify writes it, whatever the id, on every read', () => {
    for (const id of [1, 0, -7.5, 'a"b', '', null]) {
      const reply = success(id, receipt)
      expect(responseText(reply)).toBe(JSON.stringify(reply))
      expect(responseText(reply)).toBe(JSON.stringify(reply))
    }
  })

  test('a string result is written exactly as JSON.stringify writes it, whatever the id', () => {
    for (const id of [1, 0, -7.5, 1e21, 'a"b', '', null])
      for (const result of ['0x1a4', '', 'quote " backslash \\ \u2028 \ud800 é']) {
        const reply = success(id, result)
        expect(responseText(reply)).toBe(JSON.stringify(reply))
      }
  })

  test('a batch mixing frozen results, plain results and errors is the same text as JSON.stringify writes', () => {
    const batch = [
      success(1, receipt),
      success('x', { plain: true }),
      success(2, null),
      success(5, '0x"5'),
      failure(3, new InvalidParamsError('invalid params').toJSON()),
      success(4, receipt),
    ]
    expect(responseText(batch)).toBe(JSON.stringify(batch))
    expect(responseText([])).toBe('[]')
  })
})
