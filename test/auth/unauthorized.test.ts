// The 401 answer: kube's Unauthorized Status, byte for byte as the wire encoder writes it, with nothing that would
// tell a client why (no details, no causes).
import { describe, expect, it } from 'vitest'
import { unauthorizedStatus } from '../../src/auth/unauthorized'
import { encodeBody } from '../../src/registry/wire-json'

describe('unauthorized', () => {
  it("is kube's body exactly", () => {
    expect(encodeBody(unauthorizedStatus())).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}\n',
    )
  })

  it('a fresh object each time, so a caller changing one cannot change the next', () => {
    const a = unauthorizedStatus()
    a.message = 'changed'
    expect(unauthorizedStatus().message).toBe('Unauthorized')
  })
})
