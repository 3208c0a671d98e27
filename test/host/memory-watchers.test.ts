// The watch fan-out over the in-memory membership runs the shared watchers case suite, on recording sockets.
import { MemoryMembership, RecordingSocket } from '../../src/host/watch-membership'
import { Watchers } from '../../src/host/watchers'
import { watchersCases } from './watchers.cases'

watchersCases('memory', async (fn) => {
  const watchers = new Watchers(new MemoryMembership())
  await fn({
    watchers,
    join(spec) {
      const socket = new RecordingSocket()
      watchers.accept(socket, spec)
      // Sends are synchronous here: what was sent has arrived.
      return { received: async () => socket.events(), closed: async () => socket.closed }
    },
  })
})
