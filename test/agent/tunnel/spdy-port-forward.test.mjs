// kubectl's SPDY port-forward session served by the agent, with the test playing kubectl (its own header codec):
// streams accepted, a pair dialled to a real listener and copied both ways with FIN, a refused port reported on the
// error stream in the kubelet's words, PINGs answered, and the pod's sockets paused while kubectl has not answered
// the session's own PINGs for more than its window of data (a client that stops reading stops the pod's writer).
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
import { ACK_WINDOW, PING_EVERY, SpdyPortForward } from '../../../agent/tunnel/spdy-port-forward.ts'

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

function session(known = true, p = port) {
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
  const syn = (id, type, requestId, to = p) => {
    const headers = client.encode(
      new Map([
        ['streamtype', type],
        ['port', String(to)],
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
    // The error stream ends too, empty (kubectl waits for it before closing its local connection).
    await s.until('the error stream’s FIN', (fs) => fs.some((f) => !f.control && f.stream === 1 && f.flags & 1))
    assert.equal(dataOn(s.read(), 1), '')
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

  it('pauses the pod’s writer while kubectl leaves its PINGs unanswered, and resumes as it answers', async () => {
    // A pod that writes 48 MiB (more than loopback buffers hold) as fast as it may, counting what its socket accepted.
    const total = 48 * 1024 * 1024
    let written = 0
    const firehose = createServer((socket) => {
      const chunk = Buffer.alloc(64 * 1024, 120)
      const pump = () => {
        while (written < total) {
          written += chunk.length
          if (!socket.write(chunk)) return socket.once('drain', pump)
        }
        socket.end()
      }
      pump()
    })
    await new Promise((r) => firehose.listen(0, '127.0.0.1', r))
    const s = session(true, firehose.address().port)
    try {
      s.syn(1, 'error', 0)
      s.syn(3, 'data', 0)
      const received = () =>
        s
          .read()
          .filter((f) => !f.control && f.stream === 3)
          .reduce((n, f) => n + f.data.length, 0)
      const ours = () =>
        s
          .read()
          .filter((f) => f.control && f.type === 6)
          .map((f) => f.body.readUInt32BE(0))
      await s.until('the window to fill', () => received() > ACK_WINDOW)
      await new Promise((r) => setTimeout(r, 300))
      const held = received()
      // Kubectl answered nothing: the session stopped past its window (one socket read over at most).
      assert.ok(held <= ACK_WINDOW + 256 * 1024, `sent ${held} bytes without an answer`)
      assert.equal(s.pf.unacknowledged, held)
      assert.ok(written < total, 'the pod was never held back')
      const pings = ours()
      // One after every PING_EVERY bytes (a socket read may carry more), all of ours even.
      assert.ok(pings.length >= 2 && pings.length <= held / PING_EVERY, `pings ${pings} for ${held} bytes`)
      assert.deepEqual(
        pings,
        pings.map((_, i) => 2 * (i + 1)),
      )
      // Kubectl reads on: answering the PINGs as they come lets the rest flow.
      let answered = 0
      for (let i = 0; i < 400 && received() < total; i++) {
        const fresh = ours().slice(answered)
        answered += fresh.length
        for (const id of fresh) s.send(pingFrame(id))
        await new Promise((r) => setTimeout(r, 10))
      }
      assert.equal(received(), total)
    } finally {
      s.pf.handler.closed()
      firehose.close()
    }
  })
})
