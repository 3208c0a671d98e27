// Which run of a simulated container a pods/log request reads: each run of a program that exits writes the program's
// lines again, so the newest run (running, or the one in lastState while it waits to start again) and --previous (the
// run in lastState) are windows of its log, as kubelet's validateContainerLogStatus picks container IDs.
import { describe, expect, it } from 'vitest'
import { podLogRequest } from '../../src/registry/pod-log-request'

type Obj = Record<string, any>

const pod = (status: Obj): Obj => ({
  metadata: { name: 'p', uid: 'u' },
  spec: { containers: [{ name: 'c', image: 'busybox', command: ['sh', '-c', 'echo a; echo b; sleep 5; exit 1'] }] },
  status: { phase: 'Running', containerStatuses: [{ name: 'c', ...status }] },
})
const request = (status: Obj, previous = false) =>
  podLogRequest({ rv: 1, object: pod(status) as any }, 'p', { previous })

describe('podLogRequest and restarted containers', () => {
  it('reads the whole log of a container never restarted, and has no previous run for it', () => {
    const first = request({ state: { running: {} }, restartCount: 0, lastState: {} })
    expect(first.ok && first.value.lines).toBeUndefined()
    const previous = request({ state: { running: {} }, restartCount: 0, lastState: {} }, true)
    expect(previous.ok).toBe(false)
    if (!previous.ok) expect(previous.status.message).toBe('previous terminated container "c" in pod "p" not found')
  })

  it('reads the newest run of a restarted container, and the run before it with previous', () => {
    const running = { state: { running: {} }, restartCount: 2, lastState: { terminated: { containerID: 'x' } } }
    const now = request(running)
    expect(now.ok && now.value.lines).toEqual({ from: 4, to: 6 })
    const before = request(running, true)
    expect(before.ok && before.value.lines).toEqual({ from: 2, to: 4 })
  })

  it('while it waits in CrashLoopBackOff, both read the run that ended', () => {
    const waiting = {
      state: { waiting: { reason: 'CrashLoopBackOff' } },
      restartCount: 1,
      lastState: { terminated: { containerID: 'x' } },
    }
    expect(request(waiting).ok && (request(waiting) as any).value.lines).toEqual({ from: 2, to: 4 })
    expect((request(waiting, true) as any).value.lines).toEqual({ from: 2, to: 4 })
  })
})
