// The watch fan-out over hibernatable WebSockets runs the shared watchers case suite inside a fresh Durable Object
// per case (the watch hub class: its constructor leaves SQLite alone and nothing here pokes it). Each watch is a
// WebSocketPair whose server end the membership accepts through ctx.acceptWebSocket; the case reads the client end.
import { env } from 'cloudflare:workers'
import { runInDurableObject } from 'cloudflare:test'
import { HibernatingMembership } from '../../src/host/watch-membership'
import { Watchers } from '../../src/host/watchers'
import { watchersCases, type WatchClient } from './watchers.cases'

/** Messages the test itself sends down a socket to know that everything sent before them has arrived. */
const DRAIN = 'drain:'

/** Waits for `done`, yielding to the event loop between looks (delivery between the two ends is asynchronous). */
async function until(done: () => boolean, what: string) {
  for (let i = 0; i < 2000 && !done(); i++) await new Promise((r) => setTimeout(r, 1))
  if (!done()) throw new Error(`timed out waiting for ${what}`)
}

let n = 0
const run = Date.now().toString(36)
watchersCases('hibernating', (fn) =>
  runInDurableObject(env.WATCH_HUB.getByName(`watchers-${run}-${n++}`), async (_instance, ctx) => {
    const watchers = new Watchers(new HibernatingMembership(ctx))
    const clients: WebSocket[] = []
    try {
      await fn({
        watchers,
        join(spec): WatchClient {
          const pair = new WebSocketPair()
          const [client, server] = [pair[0], pair[1]]
          const messages: string[] = []
          let closed: { code?: number; reason?: string } | null = null
          let drains = 0
          client.addEventListener('message', (e) => {
            messages.push(typeof e.data === 'string' ? e.data : new TextDecoder().decode(e.data as ArrayBuffer))
          })
          client.addEventListener('close', (e) => {
            closed = { code: e.code, reason: e.reason }
          })
          // The server end first: workerd refuses acceptWebSocket on a socket whose pair was already accepted.
          watchers.accept(server, spec)
          client.accept()
          clients.push(client)
          const drain = async () => {
            if (server.readyState === WebSocket.READY_STATE_OPEN) {
              const marker = `${DRAIN}${drains++}`
              server.send(marker)
              await until(() => messages.includes(marker), 'the drain marker')
            } else {
              // The host closed it: the close frame comes after everything sent before it.
              await until(() => closed !== null, 'the close')
            }
          }
          return {
            async received() {
              await drain()
              return messages.filter((m) => !m.startsWith(DRAIN)).map((m) => JSON.parse(m))
            },
            async closed() {
              await drain()
              return closed
            },
          }
        },
      })
    } finally {
      for (const c of clients) {
        try {
          c.close(1000, 'case over')
        } catch {
          // already closed
        }
      }
    }
  }),
)
