// Go's StdEncoding as encoding/json applies it to []byte: the byte offsets of its CorruptInputError, newlines
// ignored, padding required, and the canonical form it writes back.
import { describe, expect, it } from 'vitest'
import { base64Error, base64OfText, decodeBase64, decodedLength, encodeBase64 } from '../../src/registry/go-base64'

describe('base64Error (base64.CorruptInputError)', () => {
  const cases: [string, number | null][] = [
    ['', null],
    ['aGk=', null],
    ['aGVsbG8=', null],
    ['aG==', null],
    ['aGk=\n', null],
    ['aG\r\nk=', null],
    ['aGk', 0],
    ['a', 0],
    ['aGVsbG8', 4],
    ['a===', 1],
    ['aG=', 3],
    ['aG=x', 2],
    ['aGk=x', 4],
    ['!!!!', 0],
    ['aGVsbG8!', 7],
    ['aGk=aGk=', 4],
    ['é', 0],
  ]
  for (const [text, at] of cases) {
    it(JSON.stringify(text), () => {
      expect(base64Error(text)).toBe(at === null ? null : `illegal base64 data at input byte ${at}`)
    })
  }
})

describe('encode and decode', () => {
  it('round-trips every byte value and agrees with btoa', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i)
    const text = encodeBase64(all)
    expect(text).toBe(btoa(String.fromCharCode(...all)))
    expect([...decodeBase64(text)]).toEqual([...all])
    expect(decodedLength(text)).toBe(256)
    for (const n of [0, 1, 2, 3, 4, 5]) expect(decodedLength(encodeBase64(all.slice(0, n)))).toBe(n)
  })
  it('text is UTF-8 first, as []byte(s) is', () => {
    expect(base64OfText('é')).toBe('w6k=')
    expect(decodedLength('w6k=')).toBe(2)
  })
})
