// Which handler serves a stream the node object opens, by its op. An op this agent does not serve ends the stream
// with an error the client sees.
import type { Opener, Stream, StreamHandler } from './tunnel-client.ts'

export type StreamServer = (stream: Stream) => StreamHandler

export function streamOpener(servers: Partial<Record<Stream['request']['op'], StreamServer>>): Opener {
  return (stream) => {
    const serve = servers[stream.request.op]
    if (!serve) throw new Error(`this node agent does not serve ${stream.request.op}`)
    return serve(stream)
  }
}
