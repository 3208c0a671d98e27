// The agent's end of the tunnel over a stand-in socket: streams opened by OPEN, data held to the peer's credit, EOF
// and CLOSE after the data they follow, the peer's CLOSE and a lost connection ending streams, and redialling (also
// when a dial hangs: a restarting server may take the connection and never answer it).
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { TunnelClient, tunnelProtocols } from '../../../agent/tunnel/tunnel-client.ts'
import {
  closeFrame,
  creditFrame,
  dataFrame,
  decodeFrame,
  FrameType,
  jsonFrame,
  readJson,
} from '../../../src/node/tunnel-frames.ts'

/** A socket the test drives from the node object's side. */
function fakeSocket() {
  const listeners = {}
  const sent = []
  const socket = {
    binaryType: '',
    readyState: 0,
    sent,
    send: (d) => sent.push(d),
    close() {
      socket.readyState = 3
      for (const l of listeners.close ?? []) l({})
    },
    addEventListener: (t, l) => (listeners[t] ??= []).push(l),
    emit(t, ev = {}) {
      if (t === 'open') socket.readyState = 1
      for (const l of listeners[t] ?? []) l(ev)
    },
    deliver(frame) {
      socket.emit('message', { data: frame.buffer.slice(frame.byteOffset, frame.byteOffset + frame.byteLength) })
    },
    frames: () => sent.filter((d) => typeof d !== 'string').map((d) => decodeFrame(d)),
  }
  return socket
}

function setup() {
  const sockets = []
  const handlers = []
  const client = new TunnelClient(
    () => {
      const s = fakeSocket()
      sockets.push(s)
      return s
    },
    (stream) => {
      const h = { stream, data: [], eofs: [], closedWith: undefined }
      handlers.push(h)
      return {
        data: (ch, bytes) => h.data.push([ch, Buffer.from(bytes).toString()]),
        eof: (ch) => h.eofs.push(ch),
        closed: (why) => (h.closedWith = why ?? 'closed'),
      }
    },
    () => {},
  )
  client.start()
  sockets[0].emit('open')
  return { client, sockets, handlers }
}

describe('TunnelClient', () => {
  it('opens streams and passes data both ways', () => {
    const { sockets, handlers, client } = setup()
    const s = sockets[0]
    s.deliver(jsonFrame(FrameType.OPEN, 7, { op: 'exec', namespace: 'n', pod: 'p', uid: 'u', window: 10 }))
    assert.equal(handlers.length, 1)
    assert.equal(handlers[0].stream.request.op, 'exec')
    s.deliver(dataFrame(7, 0, Buffer.from('in')))
    assert.deepEqual(handlers[0].data, [[0, 'in']])
    handlers[0].stream.send(1, Buffer.from('out'))
    handlers[0].stream.grant(2)
    const frames = s.frames()
    assert.deepEqual(
      frames.map((f) => f.type),
      [FrameType.DATA, FrameType.CREDIT],
    )
    assert.equal(Buffer.from(frames[0].payload).toString(), '\x01out')
    client.stop()
  })

  it('holds data beyond the credit, and EOF and CLOSE behind it', () => {
    const { sockets, handlers, client } = setup()
    const s = sockets[0]
    s.deliver(jsonFrame(FrameType.OPEN, 1, { op: 'log', namespace: 'n', pod: 'p', uid: 'u', window: 4 }))
    const st = handlers[0].stream
    let drained = false
    st.send(1, Buffer.from('abcdef'))
    st.onDrain(() => (drained = true))
    st.eof(1)
    st.close()
    assert.equal(st.blocked, true)
    assert.deepEqual(
      s.frames().map((f) => [f.type, Buffer.from(f.payload).toString()]),
      [[FrameType.DATA, '\x01abcd']],
    )
    s.deliver(creditFrame(1, 10))
    assert.equal(drained, true)
    assert.deepEqual(
      s.frames().map((f) => f.type),
      [FrameType.DATA, FrameType.DATA, FrameType.EOF, FrameType.CLOSE],
    )
    assert.equal(client.open, 0)
    client.stop()
  })

  it("ends a stream on the peer's CLOSE, and every stream when the connection drops; then dials again", async () => {
    const { sockets, handlers, client } = setup()
    const s = sockets[0]
    s.deliver(jsonFrame(FrameType.OPEN, 1, { op: 'exec', namespace: 'n', pod: 'p', uid: 'u' }))
    s.deliver(jsonFrame(FrameType.OPEN, 2, { op: 'exec', namespace: 'n', pod: 'p', uid: 'u' }))
    s.deliver(closeFrame(1, 'client left'))
    assert.equal(handlers[0].closedWith, 'client left')
    s.close()
    assert.equal(handlers[1].closedWith, 'the tunnel to the server was lost')
    await new Promise((r) => setTimeout(r, 1200))
    assert.equal(sockets.length, 2)
    client.stop()
  })

  it('gives up a dial that never opens and dials again with back-off', async () => {
    const sockets = []
    const logged = []
    let failed = 0
    const client = new TunnelClient(
      () => {
        const s = fakeSocket()
        sockets.push(s)
        return s
      },
      () => ({ data() {}, eof() {}, closed() {} }),
      (msg) => logged.push(msg),
      { dialFailed: () => failed++ },
      100,
    )
    client.start()
    // Nothing answers the first dial: given up after 100 ms, the next one 1 s later.
    await new Promise((r) => setTimeout(r, 300))
    assert.equal(sockets[0].readyState, 3, 'the hanging dial was not closed')
    assert.equal(failed, 1)
    assert.match(logged[0], /did not open in 0.1s/)
    assert.equal(sockets.length, 1)
    const t0 = Date.now()
    while (sockets.length < 2 && Date.now() - t0 < 2000) await new Promise((r) => setTimeout(r, 5))
    assert.ok(Date.now() - t0 > 600, 'dialled again without back-off')
    assert.equal(sockets.length, 2)
    sockets[1].emit('open')
    // The given-up socket opening late is closed, not taken.
    sockets[0].readyState = 0
    sockets[0].emit('open')
    assert.equal(sockets[0].readyState, 3)
    sockets[1].deliver(jsonFrame(FrameType.OPEN, 5, { op: 'exec', namespace: 'n', pod: 'p', uid: 'u' }))
    assert.equal(client.open, 1)
    client.stop()
  })

  it('ignores garbage and a second OPEN of a live stream', () => {
    const { sockets, handlers, client } = setup()
    const s = sockets[0]
    s.deliver(Uint8Array.of(1, 2))
    s.deliver(jsonFrame(FrameType.OPEN, 3, { op: 'exec', namespace: 'n', pod: 'p', uid: 'u' }))
    s.deliver(jsonFrame(FrameType.OPEN, 3, { op: 'log', namespace: 'n', pod: 'p', uid: 'u' }))
    assert.equal(handlers.length, 1)
    assert.equal(readJson(jsonFrame(FrameType.OPEN, 3, { a: 1 }).subarray(5)).a, 1)
    client.stop()
  })

  it('offers the tunnel protocol and the token as kube’s bearer subprotocol', () => {
    assert.deepEqual(tunnelProtocols('abc'), [
      'tunnel.kubeflare.dev',
      `base64url.bearer.authorization.k8s.io.${Buffer.from('abc').toString('base64url')}`,
    ])
  })
})
