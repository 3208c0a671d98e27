// The Status objects exec and attach put on the error channel (channel 3), as kube's remotecommand server writes them
// (json.Marshal of a metav1.Status: no kind or apiVersion, no zero code), and the lookup of the container a stream
// names.
import type { ContainerRecord } from '../container-record.ts'
import type { PodManager } from '../pod-manager.ts'
import type { Stream } from './tunnel-client.ts'

export const ERROR_CHANNEL = 3

export const success = () => ({ metadata: {}, status: 'Success' })

/** kube's NonZeroExitCode Status (containerd's wording of the exit), whose cause kubectl turns into its exit code. */
export const nonZeroExit = (command: string[], code: number) => ({
  metadata: {},
  status: 'Failure',
  message: `command terminated with non-zero exit code: error executing command [${command.join(' ')}], exit code ${code}`,
  reason: 'NonZeroExitCode',
  details: { causes: [{ reason: 'ExitCode', message: String(code) }] },
})

/** An InternalError as the kubelet reports a failure to run what was asked (`error executing command in container`). */
export const internal = (message: string) => ({
  metadata: {},
  status: 'Failure',
  message: `Internal error occurred: ${message}`,
  reason: 'InternalError',
  details: { causes: [{ message }] },
  code: 500,
})

/** Ends a stream with a Status on the error channel. */
export function endWith(stream: Stream, status: object) {
  stream.send(ERROR_CHANNEL, Buffer.from(JSON.stringify(status)))
  stream.close()
}

/** The running container a stream names, or why there is none (already reported to the client). */
export function runningContainer(stream: Stream, pods: PodManager, what: string): ContainerRecord | null {
  const { namespace, pod, uid, container } = stream.request
  const worker = pods.byName(namespace, pod)
  const record = worker?.uid === uid && container ? worker.record(container) : undefined
  if (!record) {
    endWith(stream, internal(`${what}: container "${container ?? ''}" of pod "${pod}" is not known on this node`))
    return null
  }
  if (!record.running || !record.proc) {
    endWith(stream, internal(`${what}: container "${record.name}" is not running`))
    return null
  }
  return record
}
