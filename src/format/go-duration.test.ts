import { expect, test } from 'vitest'
import { formatGoDuration, parseGoDuration } from './go-duration.js'

test('Go durations read as time.ParseDuration reads them, in ms', () => {
  expect(parseGoDuration('5s')).toBe(5000)
  expect(parseGoDuration('1h2m3.5s')).toBe(3_723_500)
  expect(parseGoDuration('1.s')).toBe(1000)
  expect(parseGoDuration('.5s')).toBe(500)
  expect(parseGoDuration('1500us')).toBe(1.5)
  expect(parseGoDuration('1µs')).toBe(0.001)
  expect(parseGoDuration('-2m')).toBe(-120_000)
  expect(parseGoDuration('0')).toBe(0)
  expect(parseGoDuration('+0')).toBe(0)
  for (const bad of ['', '5', '-', '.s', 's', '5 s', '5S', '1d', '5s3', 'abc5s'])
    expect(parseGoDuration(bad), bad).toBeUndefined()
})

test('written back as Duration.String writes them (geth’s `execution aborted (timeout = …)`)', () => {
  expect(formatGoDuration(5000)).toBe('5s')
  expect(formatGoDuration(50)).toBe('50ms')
  expect(formatGoDuration(1.5)).toBe('1.5ms')
  expect(formatGoDuration(0.25)).toBe('250µs')
  expect(formatGoDuration(0.000_001)).toBe('1ns')
  expect(formatGoDuration(1500)).toBe('1.5s')
  expect(formatGoDuration(90_000)).toBe('1m30s')
  expect(formatGoDuration(3_600_000)).toBe('1h0m0s')
  expect(formatGoDuration(3_723_500)).toBe('1h2m3.5s')
  expect(formatGoDuration(0)).toBe('0s')
  expect(formatGoDuration(-1500)).toBe('-1.5s')
})
