// SPDY/3.1 pieces kubectl's port-forward needs: the spec's header dictionary, header blocks that continue one zlib
// stream per direction (checked against Node's own stateful zlib, as Go's compress/zlib keeps one), and frames read
// from a byte stream however it is cut.
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { constants, createDeflate, createInflate } from 'node:zlib'
import { describe, it } from 'node:test'
import {
  DICTIONARY,
  dataFrame,
  FrameReader,
  HeaderCodec,
  pingFrame,
  SYN_STREAM,
  controlFrame,
} from '../../../agent/tunnel/spdy.ts'

/** Feeds blocks through one zlib stream, sync-flushing after each, and answers each block's output. */
async function throughStream(zstream, blocks) {
  const out = []
  for (const b of blocks) {
    const chunks = []
    const onData = (d) => chunks.push(d)
    zstream.on('data', onData)
    zstream.write(b)
    await new Promise((r) => zstream.flush(constants.Z_SYNC_FLUSH, r))
    await new Promise((r) => setImmediate(r))
    zstream.off('data', onData)
    out.push(Buffer.concat(chunks))
  }
  return out
}

const block = (pairs) => {
  const parts = [Buffer.alloc(4)]
  parts[0].writeUInt32BE(pairs.length)
  for (const [k, v] of pairs) {
    for (const s of [k, v]) {
      const len = Buffer.alloc(4)
      len.writeUInt32BE(s.length)
      parts.push(len, Buffer.from(s))
    }
  }
  return Buffer.concat(parts)
}

describe('SPDY/3 header compression', () => {
  it('uses the spec’s dictionary', () => {
    assert.equal(DICTIONARY.length, 1423)
    assert.equal(
      createHash('sha256').update(DICTIONARY).digest('hex'),
      '51d27341373f923f3cd88e1eb7162aeaa3723d7585ff2399201dc06498407f02',
    )
  })

  it('decodes blocks of one continuous zlib stream (as kubectl sends them)', async () => {
    const headers = [
      [
        ['streamtype', 'error'],
        ['port', '8080'],
        ['requestid', '0'],
      ],
      [
        ['streamtype', 'data'],
        ['port', '8080'],
        ['requestid', '0'],
      ],
      [
        ['streamtype', 'error'],
        ['port', '8080'],
        ['requestid', '1'],
      ],
    ]
    const compressed = await throughStream(createDeflate({ dictionary: DICTIONARY, level: 9 }), headers.map(block))
    const codec = new HeaderCodec()
    for (const [i, c] of compressed.entries()) assert.deepEqual([...codec.decode(c)], headers[i])
  })

  it('encodes blocks a continuous zlib stream reads', async () => {
    const codec = new HeaderCodec()
    const sets = [new Map(), new Map([['a', 'b']]), new Map()]
    const plain = await throughStream(
      createInflate({ dictionary: DICTIONARY }),
      sets.map((h) => codec.encode(h)),
    )
    assert.deepEqual(
      plain,
      sets.map((h) => block([...h])),
    )
  })
})

describe('FrameReader', () => {
  it('reads frames split and joined across chunks', () => {
    const bytes = Buffer.concat([
      pingFrame(7),
      dataFrame(3, Buffer.from('hello'), true),
      controlFrame(SYN_STREAM, 0, Buffer.alloc(10)),
    ])
    const r = new FrameReader()
    const frames = [...r.push(bytes.subarray(0, 5)), ...r.push(bytes.subarray(5, 17)), ...r.push(bytes.subarray(17))]
    assert.equal(frames.length, 3)
    assert.deepEqual([frames[0].control, frames[0].type, frames[0].body.readUInt32BE(0)], [true, 6, 7])
    assert.deepEqual(
      [frames[1].control, frames[1].stream, frames[1].flags, frames[1].data.toString()],
      [false, 3, 1, 'hello'],
    )
    assert.equal(frames[2].type, SYN_STREAM)
  })
})
