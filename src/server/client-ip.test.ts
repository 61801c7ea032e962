import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, test } from 'vitest'
import { clientIp, createClientIpResolver, normalizeIp, trustedProxyList } from './client-ip.js'

describe('client IP behind proxies', () => {
  test('a spoofed X-Forwarded-For from an untrusted peer does not change the client', () => {
    const headers = { 'x-forwarded-for': '203.0.113.9', 'x-real-ip': '203.0.113.10' }
    expect(clientIp('198.51.100.1', headers, [])).toBe('198.51.100.1')
    expect(clientIp('198.51.100.1', headers, ['10.0.0.0/8'])).toBe('198.51.100.1')
  })

  test('X-Forwarded-For from a trusted proxy names the client', () => {
    expect(clientIp('10.1.2.3', { 'x-forwarded-for': '203.0.113.9' }, ['10.0.0.0/8'])).toBe('203.0.113.9')
  })

  test('the walk goes right to left past trusted hops and stops at the first untrusted one', () => {
    // the client wrote "1.1.1.1" itself; the edge proxy appended the client's real address, the inner one the edge's
    const headers = { 'x-forwarded-for': '1.1.1.1, 203.0.113.9, 10.0.0.7' }
    expect(clientIp('10.0.0.8', headers, ['10.0.0.0/8'])).toBe('203.0.113.9')
  })

  test('repeated X-Forwarded-For headers are read as one list', () => {
    expect(clientIp('10.0.0.8', { 'x-forwarded-for': ['1.1.1.1', '203.0.113.9'] }, ['10.0.0.0/8'])).toBe('203.0.113.9')
  })

  test('when every hop is a trusted proxy the leftmost one is the client', () => {
    expect(clientIp('10.0.0.8', { 'x-forwarded-for': '10.9.9.9, 10.0.0.7' }, ['10.0.0.0/8'])).toBe('10.9.9.9')
  })

  test('a garbage hop stops the walk at the last address a trusted proxy vouched for', () => {
    expect(clientIp('10.0.0.8', { 'x-forwarded-for': '203.0.113.9, not-an-ip, 10.0.0.7' }, ['10.0.0.0/8'])).toBe(
      '10.0.0.7',
    )
    expect(clientIp('10.0.0.8', { 'x-forwarded-for': 'not-an-ip' }, ['10.0.0.0/8'])).toBe('10.0.0.8')
  })

  test('X-Real-IP is believed from a trusted proxy when there is no X-Forwarded-For', () => {
    expect(clientIp('10.0.0.8', { 'x-real-ip': '203.0.113.9' }, ['10.0.0.0/8'])).toBe('203.0.113.9')
    expect(clientIp('10.0.0.8', { 'x-real-ip': 'bogus' }, ['10.0.0.0/8'])).toBe('10.0.0.8')
    expect(clientIp('198.51.100.1', { 'x-real-ip': '203.0.113.9' }, ['10.0.0.0/8'])).toBe('198.51.100.1')
  })

  test('IPv6 proxies and clients work, and one address has one spelling', () => {
    const trusted = ['fd00::/8']
    expect(clientIp('fd00::1', { 'x-forwarded-for': '2001:DB8:0:0::1' }, trusted)).toBe('2001:db8::1')
    expect(clientIp('2001:db8::5', { 'x-forwarded-for': '203.0.113.9' }, trusted)).toBe('2001:db8::5')
    expect(clientIp('fd00::1', { 'x-forwarded-for': '[2001:db8::7]:4711' }, trusted)).toBe('2001:db8::7')
  })

  test('an IPv4-mapped IPv6 peer matches an IPv4 range and is charged as its IPv4 address', () => {
    expect(clientIp('::ffff:127.0.0.1', {}, [])).toBe('127.0.0.1')
    expect(clientIp('::ffff:10.0.0.8', { 'x-forwarded-for': '::ffff:203.0.113.9' }, ['10.0.0.0/8'])).toBe('203.0.113.9')
    expect(clientIp('::ffff:198.51.100.1', { 'x-forwarded-for': '203.0.113.9' }, ['10.0.0.0/8'])).toBe('198.51.100.1')
  })

  test('a bare address in the list trusts exactly that address', () => {
    const resolve = createClientIpResolver(['192.0.2.1'])
    expect(resolve('192.0.2.1', { 'x-forwarded-for': '203.0.113.9' })).toBe('203.0.113.9')
    expect(resolve('192.0.2.2', { 'x-forwarded-for': '203.0.113.9' })).toBe('192.0.2.2')
  })

  test('addresses are normalised or rejected', () => {
    expect(normalizeIp(' 203.0.113.9:8080 ')).toBe('203.0.113.9')
    expect(normalizeIp('fe80::1%eth0')).toBe('fe80::1')
    expect(normalizeIp('::FFFF:7f00:1')).toBe('127.0.0.1')
    expect(normalizeIp('999.1.1.1')).toBeUndefined()
    expect(normalizeIp('')).toBeUndefined()
  })

  test('a malformed trusted-proxy entry is refused by name', () => {
    expect(() => trustedProxyList(['10.0.0.0/33'])).toThrow(/"10.0.0.0\/33" is not an IP address or CIDR range/)
    expect(() => trustedProxyList(['proxy.internal'])).toThrow(/"proxy.internal"/)
  })
})

describe('client IP over a real socket', () => {
  let server: Server | undefined
  afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())))

  async function seenBy(trusted: string[], headers: IncomingHttpHeaders, host: string): Promise<string> {
    server = createServer((req, res) => res.end(clientIp(req.socket.remoteAddress, req.headers, trusted)))
    await new Promise<void>((done) => server!.listen(0, host, done))
    const { port } = server.address() as AddressInfo
    return new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, headers: headers as Record<string, string> }, (res) => {
        let text = ''
        res.on('data', (chunk) => (text += chunk))
        res.on('end', () => resolve(text))
      })
      req.on('error', reject)
      req.end()
    })
  }

  test('a loopback client spoofing X-Forwarded-For is charged as itself', async () => {
    expect(await seenBy(['10.0.0.0/8'], { 'x-forwarded-for': '203.0.113.9' }, '127.0.0.1')).toBe('127.0.0.1')
  })

  test('a trusted loopback proxy on a dual-stack socket (::ffff:127.0.0.1) is believed', async () => {
    expect(await seenBy(['127.0.0.0/8'], { 'x-forwarded-for': '203.0.113.9' }, '::')).toBe('203.0.113.9')
  })
})
