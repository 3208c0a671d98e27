// host-local IPAM for the bridge pod network (as the CNI host-local plugin keeps it): each pod's address is a file
// named for the address under <data-dir>/network/ips holding the pod's uid, so allocations survive an agent restart
// and two pods never share an address. The network's first address is the bridge's (the pods' gateway).
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export interface Cidr {
  /** The network address as a number. */
  base: number
  prefix: number
}

export class CidrError extends Error {}

const toNumber = (ip: string) => ip.split('.').reduce((n, part) => n * 256 + Number(part), 0)
export const ipOf = (n: number) => [24, 16, 8, 0].map((s) => Math.floor(n / 2 ** s) % 256).join('.')

/** Reads an IPv4 CIDR (10.244.0.0/24); its host bits must be zero, and it must hold a gateway and one pod at least. */
export function parseCidr(text: string): Cidr {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/.exec(text)
  if (!m || m.slice(1, 5).some((p) => Number(p) > 255))
    throw new CidrError(`${JSON.stringify(text)} is not an IPv4 CIDR`)
  const prefix = Number(m[5])
  if (prefix > 30) throw new CidrError(`${text} is too small for a pod network (a /30 at most)`)
  const base = toNumber(m.slice(1, 5).join('.'))
  if (base % 2 ** (32 - prefix) !== 0) throw new CidrError(`${text} has host bits set`)
  return { base, prefix }
}

export const gatewayOf = (c: Cidr) => ipOf(c.base + 1)
export const contains = (c: Cidr, ip: string) =>
  Math.floor(toNumber(ip) / 2 ** (32 - c.prefix)) === c.base / 2 ** (32 - c.prefix)

export class Ipam {
  private readonly dir: string
  private readonly cidr: Cidr

  constructor(dir: string, cidr: Cidr) {
    this.dir = dir
    this.cidr = cidr
    mkdirSync(dir, { recursive: true })
  }

  /** Address → pod uid, as recorded (addresses outside the CIDR, from an earlier --pod-cidr, included). */
  allocations(): Map<string, string> {
    const out = new Map<string, string>()
    for (const ip of readdirSync(this.dir)) {
      try {
        out.set(ip, readFileSync(join(this.dir, ip), 'utf8').trim())
      } catch {}
    }
    return out
  }

  /** The pod's address: the one recorded for it, else the lowest free one; null when the range is full. */
  allocate(uid: string): string | null {
    const taken = this.allocations()
    for (const [ip, owner] of taken) if (owner === uid && contains(this.cidr, ip)) return ip
    const size = 2 ** (32 - this.cidr.prefix)
    // .0 is the network, .1 the bridge, the last the broadcast address.
    for (let n = this.cidr.base + 2; n < this.cidr.base + size - 1; n++) {
      const ip = ipOf(n)
      if (taken.has(ip)) continue
      try {
        // wx: a second agent (or pass) racing for it loses.
        writeFileSync(join(this.dir, ip), uid, { flag: 'wx' })
        return ip
      } catch {}
    }
    return null
  }

  /** Frees every address of the pod. */
  release(uid: string) {
    for (const [ip, owner] of this.allocations()) if (owner === uid) rmSync(join(this.dir, ip), { force: true })
  }
}
