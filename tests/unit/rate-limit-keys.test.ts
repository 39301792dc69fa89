// @vitest-environment node
/**
 * The keys the rate limits count under: the client's address (CF-Connecting-IP), an IPv6 client by
 * its /64, and the coarser network key beside it (an IPv6 /48, an IPv4 /24).
 */
import { describe, expect, it } from 'vitest'
import { clientAddress, networkKey, rateLimitKey } from '~/contact/limits.server'

it('keys on CF-Connecting-IP', () => {
  expect(
    clientAddress(new Request('https://aksharalabs.in/', { headers: { 'CF-Connecting-IP': '2001:db8::1' } })),
  ).toBe('2001:db8::1')
  expect(clientAddress(new Request('http://localhost/'))).toBe('unknown')
})

describe('rateLimitKey', () => {
  it('keeps an IPv4 address as it is', () => {
    expect(rateLimitKey('203.0.113.9')).toBe('203.0.113.9')
    expect(rateLimitKey('unknown')).toBe('unknown')
  })

  it('keys IPv6 addresses by their /64, however they are written', () => {
    const key = rateLimitKey('2001:db8:1:2::1')
    expect(key).toBe('2001:db8:1:2::/64')
    expect(rateLimitKey('2001:db8:1:2:ffff::9')).toBe(key)
    expect(rateLimitKey('2001:0db8:0001:0002:0000:0000:0000:0001')).toBe(key)
    expect(rateLimitKey('2001:DB8:1:2:abcd:ef01:2345:6789')).toBe(key)
    expect(rateLimitKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64')
    expect(rateLimitKey('2001:db8:1:3::1')).not.toBe(key)
    expect(rateLimitKey('2001:db8::1')).toBe('2001:db8:0:0::/64')
  })

  it('keys the loopback address', () => {
    expect(rateLimitKey('::1')).toBe('0:0:0:0::/64')
  })

  it('keys IPv4-mapped addresses by their IPv4 address, so two IPv4 clients never share a bucket', () => {
    // An IPv4 client written as an IPv6 address (`::ffff:a.b.c.d`) lies in ::ffff:0:0/96; keyed by its
    // /64 it would share one bucket with every other IPv4 client (and with ::1).
    expect(rateLimitKey('::ffff:192.0.2.1')).not.toBe(rateLimitKey('::ffff:198.51.100.7'))
    expect(rateLimitKey('::ffff:192.0.2.1')).not.toBe(rateLimitKey('::1'))
  })
})

describe('networkKey: the coarser key beside rateLimitKey', () => {
  it('keys IPv6 addresses by their /48, however they are written: every /64 of a tunnel broker’s /48 shares it', () => {
    const key = networkKey('2001:db8:1:2::1')
    expect(key).toBe('2001:db8:1::/48')
    expect(networkKey('2001:db8:1:ffff::9')).toBe(key)
    expect(networkKey('2001:0DB8:0001:abcd:0000:0000:0000:0001')).toBe(key)
    expect(networkKey('2001:db8:1::')).toBe(key)
    expect(networkKey('2001:db8:2:2::1')).not.toBe(key)
    expect(networkKey('fe80::1%eth0')).toBe('fe80:0:0::/48')
    // Two /64s of one /48: two client keys, one network key.
    expect(rateLimitKey('2001:db8:1:2::1')).not.toBe(rateLimitKey('2001:db8:1:3::1'))
    expect(networkKey('2001:db8:1:2::1')).toBe(networkKey('2001:db8:1:3::1'))
  })

  it('keys IPv4 addresses, plain or IPv4-mapped, by their /24', () => {
    expect(networkKey('203.0.113.9')).toBe('203.0.113.0/24')
    expect(networkKey('203.0.113.250')).toBe('203.0.113.0/24')
    expect(networkKey('::ffff:203.0.113.9')).toBe('203.0.113.0/24')
    expect(networkKey('::FFFF:203.0.113.77')).toBe('203.0.113.0/24')
    expect(rateLimitKey('::FFFF:203.0.113.77')).toBe('203.0.113.77')
    expect(networkKey('203.0.114.9')).not.toBe(networkKey('203.0.113.9'))
    // Never an IPv6 /48 of the mapped range, which every IPv4 client would share.
    expect(networkKey('::ffff:198.51.100.7')).not.toBe(networkKey('::ffff:203.0.113.9'))
  })

  it('keeps anything that is not an address as it is', () => {
    expect(networkKey('unknown')).toBe('unknown')
  })
})
