// @vitest-environment node
// The keys the rate limits count under: the client (an IPv6 one by its /64) and its network (IPv6 /48, IPv4 /24).
import { describe, expect, it } from 'vitest'
import { clientAddress, networkKey, rateLimitKey } from '~/contact/limits.server'

it('keys on CF-Connecting-IP', () => {
  const headers = { 'CF-Connecting-IP': '2001:db8::1' }
  expect(clientAddress(new Request('https://aksharalabs.in/', { headers }))).toBe('2001:db8::1')
  expect(clientAddress(new Request('http://localhost/'))).toBe('unknown')
})

describe('rateLimitKey', () => {
  it.each([
    ['203.0.113.9', '203.0.113.9'],
    ['unknown', 'unknown'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:db8:1:2:ffff::9', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:0000:0000:0000:0001', '2001:db8:1:2::/64'],
    ['2001:DB8:1:2:abcd:ef01:2345:6789', '2001:db8:1:2::/64'],
    ['2001:db8:1:3::1', '2001:db8:1:3::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['::FFFF:203.0.113.77', '203.0.113.77'],
  ])('keys %s (IPv4 as it is, IPv6 by its /64 however written) as %s', (address, key) => {
    expect(rateLimitKey(address)).toBe(key)
  })

  it('keys IPv4-mapped addresses by their IPv4 address, so two IPv4 clients never share a bucket', () => {
    // Keyed by its /64, an address in ::ffff:0:0/96 would share one bucket with every IPv4 client (and ::1).
    expect(rateLimitKey('::ffff:192.0.2.1')).not.toBe(rateLimitKey('::ffff:198.51.100.7'))
    expect(rateLimitKey('::ffff:192.0.2.1')).not.toBe(rateLimitKey('::1'))
  })
})

describe('networkKey: the coarser key beside rateLimitKey', () => {
  it.each([
    ['2001:db8:1:2::1', '2001:db8:1::/48'],
    ['2001:db8:1:3::1', '2001:db8:1::/48'],
    ['2001:db8:1:ffff::9', '2001:db8:1::/48'],
    ['2001:0DB8:0001:abcd:0000:0000:0000:0001', '2001:db8:1::/48'],
    ['2001:db8:1::', '2001:db8:1::/48'],
    ['2001:db8:2:2::1', '2001:db8:2::/48'],
    ['fe80::1%eth0', 'fe80:0:0::/48'],
    ['203.0.113.9', '203.0.113.0/24'],
    ['203.0.113.250', '203.0.113.0/24'],
    ['::ffff:203.0.113.9', '203.0.113.0/24'],
    ['::FFFF:203.0.113.77', '203.0.113.0/24'],
    ['203.0.114.9', '203.0.114.0/24'],
    ['::ffff:198.51.100.7', '198.51.100.0/24'],
    ['unknown', 'unknown'],
  ])('keys %s (IPv6 by its /48, IPv4 plain or mapped by its /24, else as it is) as %s', (address, key) => {
    expect(networkKey(address)).toBe(key)
  })
})
