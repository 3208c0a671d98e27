// Host ports as kube-scheduler's NodePorts filter sees them: the ports a pod's containers ask of their node
// (getContainerPorts: regular containers' ports with a hostPort), and whether one conflicts with a port a pod on the
// node already holds (HostPortInfo.CheckConflict: same protocol and port, on the same address or where either side
// binds every address).

type Obj = Record<string, any>

export interface HostPort {
  /** The address it binds; kube's default (DefaultBindAllHostIP) when the port names none. */
  ip: string
  protocol: string
  port: number
}

const ALL_ADDRESSES = '0.0.0.0'

/** The host ports a pod's containers ask for (init containers are not counted, as kube's filter counts none). */
export function podHostPorts(spec: Obj | undefined): HostPort[] {
  const out: HostPort[] = []
  for (const c of (spec?.containers ?? []) as Obj[])
    for (const p of (c.ports ?? []) as Obj[]) {
      if (!(Number(p.hostPort) > 0)) continue
      out.push({ ip: p.hostIP || ALL_ADDRESSES, protocol: p.protocol || 'TCP', port: Number(p.hostPort) })
    }
  return out
}

const conflicts = (a: HostPort, b: HostPort) =>
  a.port === b.port && a.protocol === b.protocol && (a.ip === b.ip || a.ip === ALL_ADDRESSES || b.ip === ALL_ADDRESSES)

/** Whether any wanted port conflicts with one already used on the node (fitsPorts' negation). */
export function portsConflict(wanted: readonly HostPort[], used: readonly HostPort[]): boolean {
  return wanted.some((w) => used.some((u) => conflicts(w, u)))
}
