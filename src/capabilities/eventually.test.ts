import { expect, test } from 'vitest'
import { andThen, withCleanup } from './eventually.js'

test('a value is answered at once, a promise when it settles, and cleanup runs once either way', async () => {
  const cleaned: string[] = []
  expect(
    withCleanup(
      () => 1,
      () => cleaned.push('value'),
    ),
  ).toBe(1)
  expect(cleaned).toEqual(['value'])
  let settle!: (value: number) => void
  const later = withCleanup(
    () => new Promise<number>((resolve) => (settle = resolve)),
    () => cleaned.push('promise'),
  )
  expect(cleaned).toEqual(['value'])
  settle(2)
  await expect(later).resolves.toBe(2)
  expect(cleaned).toEqual(['value', 'promise'])
})

test('a throw of the work comes back as a rejection, after its cleanup', async () => {
  let cleaned = false
  const result = withCleanup(
    () => {
      throw new Error('no such block')
    },
    () => (cleaned = true),
  )
  expect(cleaned).toBe(true)
  await expect(result).rejects.toThrow('no such block')
})

test('andThen applies at once to a value and later to a promise', async () => {
  expect(andThen(2, (n) => n * 3)).toBe(6)
  await expect(andThen(Promise.resolve(2), (n) => n * 3)).resolves.toBe(6)
})
