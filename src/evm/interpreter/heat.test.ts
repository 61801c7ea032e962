import { expect, test } from 'vitest'
import { WARM_UP_HEAT_SLICES } from '../../limits.js'
import { heatSlice } from './run.js'
import { interpreterStats } from './stats.js'

test('the heating loop runs every slice of a warm-up to the end of its gas, and counts as no call', () => {
  const answered = interpreterStats.answered
  // a slice that ended otherwise (a stack error, a revert, a wait) throws
  for (let i = 0; i < WARM_UP_HEAT_SLICES; i++) expect(() => heatSlice()).not.toThrow()
  expect(interpreterStats.answered).toBe(answered)
})
