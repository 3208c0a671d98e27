// `kubectl logs -f`: followers of a container's log, as hibernatable WebSockets tagged by pod UID and container.
// The Worker turns each message into chunks of a text/plain response; a stopped pod closes its followers.
import { format, type LogLine } from './pod-log-store'

interface FollowSpec {
  uid: string
  container: string
  timestamps: boolean
}

const tag = (uid: string, container: string) => `log:${uid}:${container}`

export class LogFollowers {
  constructor(private readonly ctx: DurableObjectState) {}

  accept(ws: WebSocket, spec: FollowSpec) {
    this.ctx.acceptWebSocket(ws, [tag(spec.uid, spec.container), `log:${spec.uid}`])
    ws.serializeAttachment({ follow: spec })
  }

  send(uid: string, container: string, lines: LogLine[]) {
    for (const ws of this.ctx.getWebSockets(tag(uid, container))) {
      const spec = (ws.deserializeAttachment() as { follow?: FollowSpec } | null)?.follow
      if (!spec) continue
      try {
        ws.send(lines.map((l) => format(l, spec.timestamps)).join(''))
      } catch {
        // the follower went away
      }
    }
  }

  /** One run of a container ended (it exited; the kubelet may start it again): its followers' streams end. */
  endContainer(uid: string, container: string) {
    for (const ws of this.ctx.getWebSockets(tag(uid, container))) {
      try {
        ws.close(1000, 'container stopped')
      } catch {
        // already closed
      }
    }
  }

  /** The pod stopped or went away: its followers' streams end. */
  end(uid: string) {
    for (const ws of this.ctx.getWebSockets(`log:${uid}`)) {
      try {
        ws.close(1000, 'pod stopped')
      } catch {
        // already closed
      }
    }
  }
}
