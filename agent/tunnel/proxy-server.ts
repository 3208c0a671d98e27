// pods/{name}/proxy on this node: the request the Worker relays (method, path and query, headers, body on channel 0
// until EOF) made to the pod's port (at its IP: the node's loopback, or its own address on the bridge network), its
// answer sent back as HEADERS and a body on channel 1 read only with credit; a pod that cannot be reached is kube's
// 503 `error trying to reach service`.
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { PodManager } from '../pod-manager.ts'
import { dialError } from './pod-ports.ts'
import type { Stream, StreamHandler } from './tunnel-client.ts'

/** Response headers not passed back (hop-by-hop). */
const HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-authenticate', 'trailer'])

function refuse(stream: Stream, code: number, reason: string, message: string) {
  const body = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code }
  stream.headers(code, [['content-type', 'application/json']])
  stream.send(1, Buffer.from(`${JSON.stringify(body)}\n`))
  stream.eof(1)
  stream.close()
}

export function serveProxy(stream: Stream, pods: PodManager): StreamHandler {
  const { namespace, pod, uid, method, scheme, port, path, query, headers } = stream.request
  const ignore: StreamHandler = { data: () => undefined, eof: () => undefined, closed: () => undefined }
  const worker = pods.byName(namespace, pod)
  if (worker?.uid !== uid) {
    refuse(stream, 404, 'NotFound', `pods "${pod}" not found`)
    return ignore
  }
  const portNumber = Number(port)
  let answered = false
  const req = (scheme === 'https' ? httpsRequest : httpRequest)(
    {
      host: worker.podHost,
      port: portNumber,
      method,
      path: `${path || '/'}${query ? `?${query}` : ''}`,
      headers: Object.fromEntries(headers ?? []),
      rejectUnauthorized: false,
    },
    (res: IncomingMessage) => {
      answered = true
      const out: [string, string][] = []
      for (let i = 0; i < res.rawHeaders.length; i += 2)
        if (!HOP.has(res.rawHeaders[i]!.toLowerCase())) out.push([res.rawHeaders[i]!, res.rawHeaders[i + 1]!])
      stream.headers(res.statusCode ?? 502, out)
      res.on('data', (chunk: Buffer) => {
        stream.send(1, chunk)
        if (stream.blocked) {
          res.pause()
          stream.onDrain(() => res.resume())
        }
      })
      res.on('end', () => {
        stream.eof(1)
        stream.close()
      })
      res.on('error', (e) => stream.close(e.message))
    },
  )
  req.on('error', (e) => {
    if (answered) return stream.close(e.message)
    refuse(stream, 503, 'ServiceUnavailable', `error trying to reach service: ${dialError(e, portNumber)}`)
  })
  return {
    data(channel, bytes) {
      if (channel === 0) req.write(bytes, () => stream.grant(bytes.length))
      else stream.grant(bytes.length)
    },
    eof(channel) {
      if (channel === 0) req.end()
    },
    closed: () => req.destroy(),
  }
}
