// Reaching a pod's ports on this node (its processes listen on the node's loopback: a process runtime shares the
// host's network), and the kubelet's wording when that fails.
import { connect, type Socket } from 'node:net'

const LOOPBACK = '127.0.0.1'

/** kubelet's wording of a connection it could not make. */
export const forwardError = (port: number, pod: string, uid: string, why: string) =>
  `error forwarding port ${port} to pod ${pod}, uid ${uid}: ${why}`

export const dialError = (e: Error, port: number) =>
  (e as NodeJS.ErrnoException).code === 'ECONNREFUSED'
    ? `dial tcp ${LOOPBACK}:${port}: connect: connection refused`
    : e.message

/** Dials a pod port. */
export const dialPort = (port: number): Socket => connect({ host: LOOPBACK, port })
