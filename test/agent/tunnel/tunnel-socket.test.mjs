// The agent's tunnel WebSocket against an independent server implementation (the `ws` package, which would agree to
// permessage-deflate if offered): no extension offered, the chosen subprotocol, binary and text both ways (large,
// fragmented and split across TCP reads), pings answered, closes either way, a refused upgrade and a dial given up.
import assert from 'node:assert/strict'
import { once } from 'node:events'
import { createServer } from 'node:http'
import { createRequire } from 'node:module'
import { after, before, describe, it } from 'node:test'
import { TunnelSocket } from '../../../agent/tunnel/tunnel-socket.ts'

const { WebSocketServer } = createRequire(import.meta.url)('ws')

let server
let wss
let url
const upgrades = []
const conns = []

before(async () => {
  server = createServer((_req, res) => res.writeHead(404).end())
  wss = new WebSocketServer({
    noServer: true,
    perMessageDeflate: true,
    handleProtocols: (offered) => (offered.has('tunnel.kubeflare.dev') ? 'tunnel.kubeflare.dev' : 'not-offered'),
  })
  server.on('upgrade', (req, socket, head) => {
    upgrades.push(req.headers)
    if (req.url === '/refuse') return socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n')
    if (req.url === '/hang') return
    wss.handleUpgrade(req, socket, head, (ws) => {
      const got = []
      conns.push({ ws, got })
      ws.on('message', (data, binary) => got.push(binary ? Buffer.from(data) : data.toString()))
    })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  url = `ws://127.0.0.1:${server.address().port}`
})
after(() => {
  wss.close()
  server.closeAllConnections()
  server.close()
})

/** A socket with its events recorded. */
function dial(path, protocols = ['tunnel.kubeflare.dev', 'base64url.bearer.authorization.k8s.io.dG9rZW4']) {
  const s = new TunnelSocket(url + path, protocols)
  const events = []
  const messages = []
  s.addEventListener('open', () => events.push('open'))
  s.addEventListener('message', (e) => messages.push(e.data))
  s.addEventListener('close', (e) => events.push(`close ${e.code}`))
  return { s, events, messages }
}

async function until(what, check, ms = 3000) {
  const t0 = Date.now()
  for (;;) {
    const v = check()
    if (v) return v
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 5))
  }
}

describe('TunnelSocket', () => {
  it('opens with the subprotocol and no extension, and carries messages both ways', async () => {
    const { s, events, messages } = dial('/tunnel')
    await until('open', () => events.includes('open'))
    assert.equal(s.readyState, 1)
    assert.equal(s.protocol, 'tunnel.kubeflare.dev')
    assert.equal(upgrades.at(-1)['sec-websocket-extensions'], undefined)
    assert.equal(
      upgrades.at(-1)['sec-websocket-protocol'],
      'tunnel.kubeflare.dev, base64url.bearer.authorization.k8s.io.dG9rZW4',
    )
    const { ws, got } = conns.at(-1)
    assert.equal(ws.extensions, '')

    // Client → server: small, 16-bit and 64-bit lengths, text.
    const big = Buffer.alloc(3 * 1024 * 1024 + 7, 0).map((_, i) => i * 31)
    s.send(Uint8Array.of(1, 2, 3))
    s.send(big.subarray(0, 40_000))
    s.send(big)
    s.send('ping')
    await until('four messages at the server', () => got.length === 4)
    assert.deepEqual(got[0], Buffer.from([1, 2, 3]))
    assert.ok(got[1].equals(big.subarray(0, 40_000)))
    assert.ok(got[2].equals(big))
    assert.equal(got[3], 'ping')

    // Server → client: binary as ArrayBuffer, text as string, a fragmented message, a large one.
    ws.send(Buffer.from([9, 8]))
    ws.send('pong')
    ws.send(Buffer.from('frag'), { fin: false })
    ws.send(Buffer.from('mented'), { fin: true })
    ws.send(big)
    await until('four messages at the client', () => messages.length === 4)
    assert.ok(messages[0] instanceof ArrayBuffer)
    assert.deepEqual([...new Uint8Array(messages[0])], [9, 8])
    assert.equal(messages[1], 'pong')
    assert.equal(Buffer.from(messages[2]).toString(), 'fragmented')
    assert.ok(Buffer.from(messages[3]).equals(big))

    // A ping is answered.
    const pong = once(ws, 'pong')
    ws.ping(Buffer.from('hi'))
    assert.equal((await pong)[0].toString(), 'hi')

    // The client closes: the server sees its code and reason.
    const closed = once(ws, 'close')
    s.close(4001, 'no answer to pings')
    const [code, reason] = await closed
    assert.equal(code, 4001)
    assert.equal(reason.toString(), 'no answer to pings')
    await until('the close event', () => events.includes('close 4001') || events.includes('close 1006'))
    assert.equal(s.readyState, 3)
  })

  it('reports the server’s close with its code', async () => {
    const { events } = dial('/tunnel')
    await until('open', () => events.includes('open'))
    conns.at(-1).ws.close(4000, 'replaced by a newer connection')
    await until('close', () => events.some((e) => e.startsWith('close')))
    assert.deepEqual(events, ['open', 'close 4000'])
  })

  it('closes without opening when the upgrade is refused or given up', async () => {
    const refused = dial('/refuse')
    await until('close', () => refused.events.length > 0)
    assert.deepEqual(refused.events, ['close 1006'])
    const hanging = dial('/hang')
    await until('the upgrade to reach the server', () => upgrades.length > 0 && upgrades.at(-1) !== undefined)
    hanging.s.close()
    assert.deepEqual(hanging.events, ['close 1006'])
    assert.equal(hanging.s.readyState, 3)
  })

  it('refuses a server that picks a subprotocol it was not offered', async () => {
    const { events } = dial('/tunnel', ['something-else'])
    await until('close', () => events.length > 0)
    assert.deepEqual(events, ['close 1006'])
  })
})
