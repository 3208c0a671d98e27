// The least time a stream stays open after its upgrade: none unless configured (the edge loses no close), what the
// Worker var says when it is a whole number of milliseconds up to 10 s, and the safe 100 ms when it is not.
import { describe, expect, it } from 'vitest'
import { streamCloseDelayMs } from '../../src/node/stream-close-delay'

describe('streamCloseDelayMs', () => {
  it('absent or empty: 0', () => {
    expect(streamCloseDelayMs({})).toBe(0)
    expect(streamCloseDelayMs({ KUBEFLARE_STREAM_CLOSE_DELAY_MS: '' })).toBe(0)
  })

  it('a whole number of milliseconds up to 10 s: that many', () => {
    expect(streamCloseDelayMs({ KUBEFLARE_STREAM_CLOSE_DELAY_MS: '0' })).toBe(0)
    expect(streamCloseDelayMs({ KUBEFLARE_STREAM_CLOSE_DELAY_MS: '100' })).toBe(100)
    expect(streamCloseDelayMs({ KUBEFLARE_STREAM_CLOSE_DELAY_MS: '10000' })).toBe(10_000)
  })

  it.each(['-1', '1.5', '10001', 'soon', ' 100', '1e3'])('%j: the safe 100', (value) => {
    expect(streamCloseDelayMs({ KUBEFLARE_STREAM_CLOSE_DELAY_MS: value })).toBe(100)
  })
})
