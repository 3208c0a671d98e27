// kubectl's SPDY port-forward session served by the agent, with the test playing kubectl (its own header codec):
// streams accepted, a pair dialled to a real listener and copied both ways with FIN, a refused port reported on the
// error stream in the kubelet's words, PINGs answered.
import assert from 'node:assert/strict'
import { createServer } from 'node:net'
import { after, before, describe, it } from 'node:test'
import {
  controlFrame,
  dataFrame,
  FrameReader,
  HeaderCodec,
  pingFrame,
  SYN_REPLY,
  SYN_STREAM,
} from '../../../agent/tunnel/spdy.ts'
import { SpdyPortForward } from '../../../agent/tunnel/spdy-port-forward.ts'

let echo
let port = 0
before(async () => {
  echo = createServer((s) =>
    s.on('data', (d) => s.write(Buffer.from(d.toString().toUpperCase()))).on('end', () => s.end()),
  )
  await new Promise((r) => echo.listen(0, '127.0.0.1', r))
  port = echo.address().port
})
after(() => echo.close())

function session(known = true) {
  const out = []
  const stream = {
    id: 1,
    request: {},
    blocked: false,
    send: (_ch, bytes) => out.push(Buffer.from(bytes)),
    onDrain: (cb) => cb(),
    grant: () => {},
    eof: () => {},
    headers: () => {},
    close: () => {},
  }
  const pf = new SpdyPortForward(stream, 'web', 'uid-1', known)
  const client = new HeaderCodec()
  const reader = new FrameReader()
  const frames = []
  const read = () => {
    frames.push(...reader.push(Buffer.concat(out.splice(0))))
    return frames
  }
  const syn = (id, type, requestId, p = port) => {
    const headers = client.encode(
      new Map([
        ['streamtype', type],
        ['port', String(p)],
        ['requestid', String(requestId)],
      ]),
    )
    const body = Buffer.concat([Buffer.alloc(10), headers])
    body.writeUInt32BE(id, 0)
    pf.handler.data(0, controlFrame(SYN_STREAM, 0, body))
  }
  const until = async (what, cond) => {
    for (let i = 0; i < 100 && !cond(read()); i++) await new Promise((r) => setTimeout(r, 20))
    assert.ok(cond(read()), `timed out waiting for ${what}`)
  }
  return { pf, syn, read, until, send: (bytes) => pf.handler.data(0, bytes) }
}

const dataOn = (frames, id) =>
  Buffer.concat(frames.filter((f) => !f.control && f.stream === id).map((f) => f.data)).toString()

describe('SPDY port-forward', () => {
  it('accepts a stream pair, dials the port and copies both ways', async () => {
    const s = session()
    s.syn(1, 'error', 0)
    s.syn(3, 'data', 0)
    await s.until('two replies', (fs) => fs.filter((f) => f.control && f.type === SYN_REPLY).length === 2)
    s.send(dataFrame(3, Buffer.from('hello')))
    await s.until('the echo', (fs) => dataOn(fs, 3) === 'HELLO')
    s.send(dataFrame(3, Buffer.alloc(0), true))
    await s.until('FIN back', (fs) => fs.some((f) => !f.control && f.stream === 3 && f.flags & 1))
  })

  it('reports a refused port on the error stream', async () => {
    const s = session()
    s.syn(1, 'error', 7, 1)
    s.syn(3, 'data', 7, 1)
    await s.until('the error', (fs) => dataOn(fs, 1).length > 0)
    assert.equal(
      dataOn(s.read(), 1),
      'error forwarding port 1 to pod web, uid uid-1: dial tcp 127.0.0.1:1: connect: connection refused',
    )
  })

  it('answers pings', async () => {
    const s = session()
    s.send(pingFrame(41))
    await s.until('the pong', (fs) => fs.some((f) => f.control && f.type === 6 && f.body.readUInt32BE(0) === 41))
  })
})
