// Reaching a pod's ports on this node (on the host's network its processes listen on the node's loopback; in a
// network namespace of its own, --pod-network bridge, on the loopback in there, as kubelet's port-forward dials), and
// the kubelet's wording when that fails.
import { connect } from 'node:net'
import type { Duplex } from 'node:stream'
import { dialInNetns } from '../network/netns-dial.ts'

const LOOPBACK = '127.0.0.1'

/** kubelet's wording of a connection it could not make. */
export const forwardError = (port: number, pod: string, uid: string, why: string) =>
  `error forwarding port ${port} to pod ${pod}, uid ${uid}: ${why}`

export const dialError = (e: Error, port: number) =>
  (e as NodeJS.ErrnoException).code === 'ECONNREFUSED'
    ? `dial tcp ${LOOPBACK}:${port}: connect: connection refused`
    : e.message

/** Dials a pod port: on the node's loopback, or inside the pod's network namespace when it has one. */
export const dialPort = (port: number, netns?: string): Duplex =>
  netns ? dialInNetns(netns, port) : connect({ host: LOOPBACK, port })
