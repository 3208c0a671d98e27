// The chunked watch's body: lines waiting are read together (kube flushes only when no event is queued), a line that
// finds the reader waiting is read alone at once, close drains first, cut and cancel drop what waits.
import { describe, expect, it } from 'vitest'
import { watchLines } from '../../src/api/watch-lines'

const dec = new TextDecoder()
const text = (r: ReadableStreamReadResult<Uint8Array>) => (r.done ? null : dec.decode(r.value))

describe('watchLines', () => {
  it('hands every line written since the last read to the next read, in order', async () => {
    const body = watchLines(() => undefined)
    const reader = body.readable.getReader()
    expect(body.write('{"a":1}\n')).toBe(true)
    body.write('{"b":2}\n')
    body.write('{"c":3}\n')
    expect(body.pending).toBe(24)
    expect(text(await reader.read())).toBe('{"a":1}\n{"b":2}\n{"c":3}\n')
    expect(body.pending).toBe(0)
  })

  it('gives a waiting reader the next line by itself as soon as it is written', async () => {
    const body = watchLines(() => undefined)
    const reader = body.readable.getReader()
    const first = reader.read()
    let settled = false
    first.then(() => (settled = true))
    await new Promise((r) => setTimeout(r, 5))
    expect(settled).toBe(false)
    body.write('{"a":1}\n')
    body.write('{"b":2}\n')
    expect(text(await first)).toBe('{"a":1}\n')
    expect(text(await reader.read())).toBe('{"b":2}\n')
  })

  it('ends after what waits was read when closed', async () => {
    const body = watchLines(() => undefined)
    const reader = body.readable.getReader()
    body.write('{"a":1}\n')
    body.close()
    expect(body.write('{"late":1}\n')).toBe(false)
    expect(text(await reader.read())).toBe('{"a":1}\n')
    expect((await reader.read()).done).toBe(true)
  })

  it('ends a waiting reader when closed with nothing waiting', async () => {
    const body = watchLines(() => undefined)
    const reader = body.readable.getReader()
    const next = reader.read()
    body.close()
    expect((await next).done).toBe(true)
  })

  it('fails the body and drops what waits when cut', async () => {
    const body = watchLines(() => undefined)
    const reader = body.readable.getReader()
    body.write('{"a":1}\n')
    body.cut('too slow')
    expect(body.pending).toBe(0)
    expect(body.write('{"b":2}\n')).toBe(false)
    await expect(reader.read()).rejects.toThrow('too slow')
  })

  it('tells its owner when the reader goes away and takes no more lines', async () => {
    let cancelled = 0
    const body = watchLines(() => cancelled++)
    body.write('{"a":1}\n')
    await body.readable.cancel()
    expect(cancelled).toBe(1)
    expect(body.pending).toBe(0)
    expect(body.write('{"b":2}\n')).toBe(false)
  })
})
