// The bare baseline for `npm run bench`: the cheapest Worker, Durable Object and D1 work the platform can do for each
// thing kubeflare does, measured in the same Miniflare process, with the same settings and the same load generator.
// Every kubeflare number in the bench table is shown as a ratio to one of these.
//
// Paths (the bench prefixes each with /bare/, the Miniflare route that selects this worker):
//   GET  /noop                   -> "ok" (no binding touched)
//   POST /insert                 -> RPC insert() on one SQLite Durable Object: one row with a random primary key
//   GET  /get?k=<key>            -> RPC get(key) on the same object: one row by primary key
//   POST /seed?n=&size=          -> RPC seed(): rows k0..k(n-1) with an indexed `shard` = i % 100 and a value of `size` bytes
//   GET  /list?shard=<s>         -> RPC list(s): the rows of one shard via the index (1% of them), as a JSON array
//   POST /d1seed?n=&size=        -> the same rows in a D1 table (for the cluster-wide list baseline)
//   GET  /d1list?shard=<s>       -> the same query against D1
//   GET  /watch   (Upgrade: websocket) -> a hibernatable WebSocket accepted by a Durable Object, passed straight through
//   GET  /wsrelay (Upgrade: websocket) -> the same, but the Worker holds the DO socket and relays each message to a
//                                   WebSocketPair of its own (what kubeflare does)
//   GET  /stream                 -> the Worker holds a hibernatable WebSocket to the Durable Object and relays each
//                                   message as one line of a streamed (chunked) response
//   POST /publish                -> the Durable Object sends the request body to every one of its WebSockets
//   ?o=<name> picks the Durable Object for /watch, /stream, /publish (default "watch").
//
// Plain JavaScript, no bundling, no dependencies: Miniflare loads this file as an ES module.
import { DurableObject } from 'cloudflare:workers'

const pad = (i, size) => {
  const head = `{"i":${i},"shard":"${i % 100}","pad":"`
  return head + 'x'.repeat(Math.max(0, size - head.length - 2)) + '"}'
}

export class BareObject extends DurableObject {
  constructor(ctx, env) {
    super(ctx, env)
    ctx.storage.sql.exec(
      "CREATE TABLE IF NOT EXISTS kv (k TEXT PRIMARY KEY, shard TEXT NOT NULL DEFAULT '', v TEXT NOT NULL) WITHOUT ROWID;" +
        'CREATE INDEX IF NOT EXISTS kv_by_shard ON kv (shard)',
    )
  }

  insert() {
    const k = crypto.randomUUID()
    this.ctx.storage.sql.exec('INSERT INTO kv (k, v) VALUES (?, ?)', k, 'value-' + k)
    return k
  }

  get(k) {
    const row = this.ctx.storage.sql.exec('SELECT v FROM kv WHERE k = ?', k).toArray()[0]
    return row ? row.v : null
  }

  seed(n, size) {
    this.ctx.storage.transactionSync(() => {
      for (let i = 0; i < n; i++) {
        this.ctx.storage.sql.exec(
          'INSERT OR REPLACE INTO kv (k, shard, v) VALUES (?, ?, ?)',
          'k' + i,
          String(i % 100),
          pad(i, size),
        )
      }
    })
    return n
  }

  list(shard) {
    return this.ctx.storage.sql
      .exec('SELECT v FROM kv WHERE shard = ? ORDER BY k', shard)
      .toArray()
      .map((r) => r.v)
  }

  async fetch(_request) {
    const [client, server] = Object.values(new WebSocketPair())
    this.ctx.acceptWebSocket(server)
    return new Response(null, { status: 101, webSocket: client })
  }

  publish(message) {
    let n = 0
    for (const ws of this.ctx.getWebSockets()) {
      try {
        ws.send(message)
        n++
      } catch {
        // closed
      }
    }
    return n
  }

  count() {
    return this.ctx.getWebSockets().length
  }

  webSocketMessage() {}

  webSocketClose(ws, code) {
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, 'closed')
    } catch {
      // already closed
    }
  }
}

async function d1seed(db, n, size) {
  await db.exec(
    'CREATE TABLE IF NOT EXISTS kv (k TEXT PRIMARY KEY, shard TEXT NOT NULL, v TEXT NOT NULL) WITHOUT ROWID',
  )
  await db.exec('CREATE INDEX IF NOT EXISTS kv_by_shard ON kv (shard)')
  const stmt = db.prepare('INSERT OR REPLACE INTO kv (k, shard, v) VALUES (?, ?, ?)')
  for (let i = 0; i < n; i += 500) {
    const part = []
    for (let j = i; j < Math.min(n, i + 500); j++) part.push(stmt.bind('k' + j, String(j % 100), pad(j, size)))
    await db.batch(part)
  }
  return n
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url)
    const q = url.searchParams
    // The bench reaches this worker through a Miniflare route on the /bare/ prefix (kubeflare owns every other path).
    if (url.pathname.startsWith('/bare/')) url.pathname = url.pathname.slice('/bare'.length)
    if (url.pathname === '/noop') return new Response('ok')
    const kv = env.BARE.get(env.BARE.idFromName('bare'))
    switch (url.pathname) {
      case '/insert':
        return new Response(await kv.insert())
      case '/get': {
        const v = await kv.get(q.get('k') ?? '')
        return v === null ? new Response('not found', { status: 404 }) : new Response(v)
      }
      case '/seed':
        return new Response(String(await kv.seed(Number(q.get('n') ?? '1000'), Number(q.get('size') ?? '100'))))
      case '/list':
        return new Response(`{"items":[${(await kv.list(q.get('shard') ?? '')).join(',')}]}`, {
          headers: { 'content-type': 'application/json' },
        })
      case '/d1seed':
        return new Response(String(await d1seed(env.BDB, Number(q.get('n') ?? '1000'), Number(q.get('size') ?? '100'))))
      case '/d1list': {
        const { results } = await env.BDB.prepare('SELECT v FROM kv WHERE shard = ? ORDER BY k')
          .bind(q.get('shard') ?? '')
          .all()
        return new Response(`{"items":[${results.map((r) => r.v).join(',')}]}`, {
          headers: { 'content-type': 'application/json' },
        })
      }
    }
    const hub = env.BARE.get(env.BARE.idFromName(q.get('o') ?? 'watch'))
    switch (url.pathname) {
      case '/watch':
        if (request.headers.get('upgrade') !== 'websocket')
          return new Response('expected a websocket upgrade', { status: 426 })
        return hub.fetch('https://bare/watch', { headers: { Upgrade: 'websocket' } })
      case '/wsrelay': {
        // kubeflare's shape: the Worker holds the Durable Object's socket and relays each message to the client's.
        if (request.headers.get('upgrade') !== 'websocket')
          return new Response('expected a websocket upgrade', { status: 426 })
        const up = await hub.fetch('https://bare/watch', { headers: { Upgrade: 'websocket' } })
        const source = up.webSocket
        if (!source) return new Response('upstream did not upgrade', { status: 502 })
        source.accept()
        const [client, server] = Object.values(new WebSocketPair())
        server.accept()
        let done = false
        const end = () => {
          if (done) return
          done = true
          try {
            source.close(1000, 'client gone')
          } catch {
            /* closed */
          }
          try {
            server.close(1000, 'done')
          } catch {
            /* closed */
          }
        }
        source.addEventListener('message', (e) => {
          try {
            server.send(e.data)
          } catch {
            end()
          }
        })
        source.addEventListener('close', end)
        server.addEventListener('close', end)
        return new Response(null, { status: 101, webSocket: client })
      }
      case '/stream': {
        const up = await hub.fetch('https://bare/watch', { headers: { Upgrade: 'websocket' } })
        const ws = up.webSocket
        if (!ws) return new Response('upstream did not upgrade', { status: 502 })
        ws.accept()
        const { readable, writable } = new TransformStream()
        const writer = writable.getWriter()
        const enc = new TextEncoder()
        let done = false
        const end = () => {
          if (done) return
          done = true
          try {
            ws.close(1000, 'client gone')
          } catch {
            /* closed */
          }
          writer.close().catch(() => undefined)
        }
        ws.addEventListener('message', (e) => {
          if (!done) writer.write(enc.encode(String(e.data) + '\n')).catch(end)
        })
        ws.addEventListener('close', end)
        return new Response(readable, {
          headers: { 'content-type': 'application/json', 'content-encoding': 'identity' },
        })
      }
      case '/publish':
        return new Response(String(await hub.publish(await request.text())))
      case '/count':
        return new Response(String(await hub.count()))
    }
    return new Response('not found', { status: 404 })
  },
}
