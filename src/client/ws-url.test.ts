import { expect, test } from 'vitest'
import { wsUrlOf } from './ws-url.js'

test('an HTTP endpoint is reached over ws://, an HTTPS one over wss://, on the same host, port and path', () => {
  expect(wsUrlOf('http://127.0.0.1:8545/flashblocks')).toBe('ws://127.0.0.1:8545/flashblocks')
  expect(wsUrlOf('https://rpc.example:443/')).toBe('wss://rpc.example:443/')
  expect(wsUrlOf('HTTPS://rpc.example')).toBe('wss://rpc.example')
  expect(wsUrlOf('ws://already.example/')).toBe('ws://already.example/')
})
