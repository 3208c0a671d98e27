// A pod's effective cpu and memory requests as kube's resourcehelper.PodRequests sums them (pure, imports nothing):
// the scheduler's fit filter and the kubelet's admission count the same. The quantity parsers are passed in, since
// the node agent loads this file as it is and parses quantities its own way.

type Obj = Record<string, any>

/** A pod's effective requests: regular containers (and sidecars) summed, or the largest init container if bigger. */
export function effectiveRequests(
  spec: Obj | undefined,
  milli: (q: unknown) => number,
  whole: (q: unknown) => number,
): { cpuMilli: number; memBytes: number } {
  const sum = (list: Obj[]) =>
    list.reduce(
      (acc, c) => ({
        cpuMilli: acc.cpuMilli + milli(c.resources?.requests?.cpu),
        memBytes: acc.memBytes + whole(c.resources?.requests?.memory),
      }),
      { cpuMilli: 0, memBytes: 0 },
    )
  const init = (spec?.initContainers ?? []) as Obj[]
  const regular = sum([...(spec?.containers ?? []), ...init.filter((c) => c.restartPolicy === 'Always')])
  let cpu = regular.cpuMilli
  let mem = regular.memBytes
  // An init container runs beside the sidecars declared before it: its peak is its request plus theirs.
  let sidecarCpu = 0
  let sidecarMem = 0
  for (const c of init) {
    if (c.restartPolicy === 'Always') {
      sidecarCpu += milli(c.resources?.requests?.cpu)
      sidecarMem += whole(c.resources?.requests?.memory)
      continue
    }
    cpu = Math.max(cpu, sidecarCpu + milli(c.resources?.requests?.cpu))
    mem = Math.max(mem, sidecarMem + whole(c.resources?.requests?.memory))
  }
  cpu += milli(spec?.overhead?.cpu)
  mem += whole(spec?.overhead?.memory)
  return { cpuMilli: cpu, memBytes: mem }
}
