import { expect, test } from 'vitest'
import { ExecutionTimeoutError } from '../../errors.js'
import { withTimeout } from './time-limit.js'

const never = () => new Promise<never>(() => {})

test('a request that outlasts its limit is answered with the timeout error naming the limit', async () => {
  await expect(withTimeout(never(), 20)).rejects.toThrow(new ExecutionTimeoutError(20).message)
})

test('work that ends within its limit answers with its own value or error, and its limit never fires after', async () => {
  await expect(withTimeout(Promise.resolve(7), 30)).resolves.toBe(7)
  await expect(withTimeout(Promise.reject(new Error('reverted')), 30)).rejects.toThrow('reverted')
  // a later limit of the same length still fires on its own (the queue forgot the decided ones)
  await expect(withTimeout(never(), 30)).rejects.toThrow(ExecutionTimeoutError)
})

test('races of one limit started one after another each time out, in the order they started', async () => {
  const order: number[] = []
  const races = [0, 1, 2, 3].map(async (i) => {
    await new Promise((resolve) => setTimeout(resolve, i * 5))
    await withTimeout(never(), 25).catch(() => order.push(i))
  })
  await Promise.all(races)
  expect(order).toEqual([0, 1, 2, 3])
})

test('no limit (0) leaves the work as it is', async () => {
  const work = Promise.resolve('done')
  expect(withTimeout(work, 0)).toBe(work)
})
