// The `kubernetes` Service for bridge pods when the agent reaches the API server on the node's loopback (a server
// started with `npm start` on the same machine): 127.0.0.1 in a pod's network namespace is the pod itself, so pods
// are given the Service's ClusterIP and port, as kube gives every pod, and the node DNATs that address to the
// loopback server (kube-proxy's rule for the Service; bridge-network.ts adds it). The server's certificate must name
// the ClusterIP, as kube-apiserver's serving certificate does (`npm start`'s does: scripts/server-cert-names.mjs).
import { connect } from 'node:tls'
import { isNotFound, type KubeClient } from '../kube-client.ts'
import type { Obj } from '../obj.ts'

export interface ApiServiceRoute {
  /** The `kubernetes` Service's ClusterIP and port, which pods dial. */
  clusterIP: string
  port: number
  /** The loopback port the API server listens on, which the node DNATs them to. */
  targetPort: number
  /** The URL pods are given (KUBERNETES_SERVICE_HOST and _PORT are read from it). */
  url: string
}

/** The port of a server URL on the node's IPv4 loopback (127.0.0.0/8 or localhost), else null. */
export function loopbackPort(server: string): number | null {
  let url: URL
  try {
    url = new URL(server)
  } catch {
    return null
  }
  if (!/^127\.\d+\.\d+\.\d+$/.test(url.hostname) && url.hostname !== 'localhost') return null
  return Number(url.port || (url.protocol === 'http:' ? 80 : 443))
}

/** The Service's ClusterIP and its `https` port (its only one), or null when it has no usable address. */
export function serviceAddress(service: Obj): { clusterIP: string; port: number } | null {
  const clusterIP = service.spec?.clusterIP
  const ports = (service.spec?.ports ?? []) as Obj[]
  const port = Number((ports.find((p) => p.name === 'https') ?? ports[0])?.port)
  if (typeof clusterIP !== 'string' || !/^\d+\.\d+\.\d+\.\d+$/.test(clusterIP) || !(port > 0)) return null
  return { clusterIP, port }
}

/**
 * The route for bridge pods, or null when the server is not on the loopback (pods reach it as the agent does, through
 * the masquerade) or the Service cannot be read (said in the log: pods then get the server's URL, as before). The
 * server makes the Service when it first serves the `default` namespace: a missing one is asked for a few times. A
 * server certificate that does not name the ClusterIP is said in the log (pods' clients will refuse it).
 */
export async function apiServiceRoute(
  client: KubeClient,
  log: (msg: string) => void,
  tries = 10,
): Promise<ApiServiceRoute | null> {
  const targetPort = loopbackPort(client.server)
  if (targetPort === null) return null
  for (let i = 1; ; i++) {
    try {
      const address = serviceAddress(await client.get('/api/v1/namespaces/default/services/kubernetes'))
      if (!address) {
        log('the kubernetes Service has no IPv4 ClusterIP: pods on the bridge network cannot reach the server')
        return null
      }
      const url = `${new URL(client.server).protocol}//${address.clusterIP}:${address.port}`
      const names = url.startsWith('https:') ? await servedNames(targetPort) : null
      if (names && !names.includes(`IP Address:${address.clusterIP}`))
        log(
          `the API server's certificate does not name the kubernetes Service's ClusterIP ${address.clusterIP}: in-cluster clients of pods on the bridge network will refuse it`,
        )
      return { ...address, targetPort, url }
    } catch (e) {
      if (i >= tries || !isNotFound(e)) {
        log(
          `reading the kubernetes Service: ${(e as Error).message}: pods on the bridge network cannot reach the server`,
        )
        return null
      }
      await new Promise((r) => setTimeout(r, 1000))
    }
  }
}

/** The subjectAltName entries of the certificate the loopback server presents (null when it cannot be read). */
function servedNames(port: number): Promise<string[] | null> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, rejectUnauthorized: false, timeout: 5000 }, () => {
      resolve((socket.getPeerCertificate().subjectaltname ?? '').split(', '))
      socket.destroy()
    })
    socket.on('error', () => resolve(null))
    socket.on('timeout', () => {
      socket.destroy()
      resolve(null)
    })
  })
}
