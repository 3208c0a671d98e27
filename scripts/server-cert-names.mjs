// The names the local server certificate carries (scripts/local-credentials.mjs makes it): 127.0.0.1, ::1 and
// localhost always; the address `--ip` gives, or every address of this machine's interfaces when it is a wildcard
// (0.0.0.0, ::, *); and the machine's hostname. kubectl or a node agent on another machine then verifies
// https://<address>:<port> against the local CA, as it verifies 127.0.0.1 on this one. Also the `kubernetes` Service's
// ClusterIP, as kube-apiserver's serving certificate names it: pods of a node agent's bridge network dial it (the
// agent DNATs it to the server on the node's loopback, agent/network/api-service.ts).
import { X509Certificate } from 'node:crypto'
import { isIP } from 'node:net'
import { networkInterfaces, hostname as osHostname } from 'node:os'

const WILDCARDS = ['0.0.0.0', '::', '*']
/** A DNS name a certificate may carry (RFC 1123 labels); a hostname that is not one is left out. */
const DNS_NAME = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/

/** The names every server certificate carries: the loopback addresses and localhost. */
export const LOOPBACK_NAMES = Object.freeze({ ips: ['127.0.0.1', '::1'], dns: ['localhost'] })

/** Whether `--ip` listens on every address. */
export const isWildcard = (ip) => WILDCARDS.includes(ip)

/**
 * An address in one spelling (IPv6 compressed and lowercased, as a URL host writes it, without a zone, which no
 * certificate carries), so lists compare.
 */
function canonicalIP(ip) {
  return isIP(ip) === 6 ? new URL(`http://[${ip.split('%')[0]}]/`).hostname.slice(1, -1) : ip
}

/**
 * The `kubernetes` Service's ClusterIP for a SERVICE_CIDR: its first address (src/registry/ip-ranges.ts'
 * firstServiceIP), that of kube's default range when the CIDR is unset or not one the server takes (IPv4, /8 to /30).
 */
export function kubernetesServiceIP(serviceCIDR) {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/.exec(String(serviceCIDR ?? '').trim())
  const bits = Number(m?.[5])
  if (!m || m.slice(1, 5).some((p) => Number(p) > 255) || bits < 8 || bits > 30) return '10.96.0.1'
  const base = m.slice(1, 5).reduce((n, p) => n * 256 + Number(p), 0)
  const first = base - (base % 2 ** (32 - bits)) + 1
  return [24, 16, 8, 0].map((s) => Math.floor(first / 2 ** s) % 256).join('.')
}

/**
 * The names the server certificate should carry when wrangler listens on `ip` (its `--ip`): `{ ips, dns }`, each
 * without repeats, in a stable order. `hostname` and `interfaces` default to this machine's (os.hostname(),
 * os.networkInterfaces()); `serviceIP`, the `kubernetes` Service's ClusterIP, is named when given.
 */
export function wantedServerNames(ip, { hostname = osHostname(), interfaces = networkInterfaces(), serviceIP } = {}) {
  const ips = [...LOOPBACK_NAMES.ips, ...(serviceIP ? [serviceIP] : [])]
  const dns = [...LOOPBACK_NAMES.dns]
  const add = (name) => {
    const n = String(name ?? '')
      .trim()
      .toLowerCase()
    if (isIP(n)) ips.push(canonicalIP(n))
    else if (DNS_NAME.test(n) && n.length <= 253) dns.push(n)
  }
  if (isWildcard(ip)) {
    for (const addresses of Object.values(interfaces)) for (const a of addresses ?? []) add(a.address)
  } else if (ip) add(ip)
  add(hostname)
  return { ips: [...new Set(ips)], dns: [...new Set(dns)] }
}

/** The names a PEM certificate carries in its subjectAltName, as wantedServerNames answers them. */
export function certificateNames(pem) {
  const ips = []
  const dns = []
  for (const entry of (new X509Certificate(pem).subjectAltName ?? '').split(', ')) {
    if (entry.startsWith('IP Address:')) ips.push(canonicalIP(entry.slice('IP Address:'.length)))
    else if (entry.startsWith('DNS:')) dns.push(entry.slice('DNS:'.length).toLowerCase())
  }
  return { ips, dns }
}

/** Whether two name lists hold the same names, in any order. */
export function sameNames(a, b) {
  const key = (names) => JSON.stringify([[...new Set(names.ips)].sort(), [...new Set(names.dns)].sort()])
  return key(a) === key(b)
}

/** forge's subjectAltName entries for the names (7: an IP address, 2: a DNS name). */
export const altNames = (names) => [
  ...names.ips.map((ip) => ({ type: 7, ip })),
  ...names.dns.map((value) => ({ type: 2, value })),
]

/**
 * The names a client on another machine dials this server by, as a Host header names them (IPv6 in brackets): the
 * server answers these too (KUBEFLARE_ALLOWED_HOSTS).
 */
export const hostHeaderNames = (names) => [...names.ips.map((ip) => (ip.includes(':') ? `[${ip}]` : ip)), ...names.dns]
