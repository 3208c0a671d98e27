// The Endpoints strategy: defaults, validation, canonical repacking of subsets (shared with the endpoints
// controller), selectable fields and the `kubectl get endpoints` table.
import { CREATION_DOC, NAME_DOC } from '../table-column-docs'
import type { Strategy, TableConvertor } from '../strategy'
import type { Endpoints, EndpointAddress, EndpointPort, EndpointSubset } from '../../schema/endpoints'
import type { ObjectMeta } from '../../schema/meta'
import { fieldError, FieldPath, type FieldError } from '../field-errors'
import { nameIsDNSSubdomain } from '../validation/names'
import { age } from '../human-duration'
import { compareUtf8 } from '../go-strings'
import {
  isValidPortNum,
  validateDNS1123Label,
  validateIP,
  validateQualifiedName,
  nameIsSubdomain,
} from './pod/pod-validation-formats'
import { validateNonSpecialIP } from './service/ip-checks'

export type EndpointsObject = Omit<Endpoints, 'metadata'> & { metadata: ObjectMeta }

const PROTOCOLS = ['SCTP', 'TCP', 'UDP']

function validateAddress(a: EndpointAddress, path: FieldPath): FieldError[] {
  const errs = validateIP(a.ip ?? '', path.child('ip'))
  if (a.hostname) errs.push(...validateDNS1123Label(a.hostname, path.child('hostname')))
  if (a.nodeName !== undefined) {
    for (const m of nameIsSubdomain(a.nodeName, false))
      errs.push(fieldError.invalid(path.child('nodeName').toString(), a.nodeName, m))
  }
  errs.push(...validateNonSpecialIP(a.ip ?? '', path.child('ip').toString()))
  return errs
}

function validatePort(p: EndpointPort, requireName: boolean, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  if (requireName && !p.name) errs.push(fieldError.required(path.child('name').toString()))
  else if (p.name) errs.push(...validateDNS1123Label(p.name, path.child('name')))
  for (const m of isValidPortNum(p.port)) errs.push(fieldError.invalid(path.child('port').toString(), p.port, m))
  if (!p.protocol) errs.push(fieldError.required(path.child('protocol').toString()))
  else if (!PROTOCOLS.includes(p.protocol))
    errs.push(fieldError.notSupported(path.child('protocol').toString(), p.protocol, PROTOCOLS))
  if (p.appProtocol !== undefined) errs.push(...validateQualifiedName(p.appProtocol, path.child('appProtocol')))
  return errs
}

/** validateEndpointSubsets. */
function validateEndpoints(ep: EndpointsObject): FieldError[] {
  const errs: FieldError[] = []
  ;(ep.subsets ?? []).forEach((ss, i) => {
    const at = new FieldPath('subsets').index(i)
    if (!ss.addresses?.length && !ss.notReadyAddresses?.length) {
      errs.push(fieldError.required(at.toString(), 'must specify `addresses` or `notReadyAddresses`'))
    }
    ;(ss.addresses ?? []).forEach((a, j) => errs.push(...validateAddress(a, at.child('addresses').index(j))))
    ;(ss.notReadyAddresses ?? []).forEach((a, j) =>
      errs.push(...validateAddress(a, at.child('notReadyAddresses').index(j))),
    )
    ;(ss.ports ?? []).forEach((p, j) =>
      errs.push(...validatePort(p, (ss.ports?.length ?? 0) > 1, at.child('ports').index(j))),
    )
  })
  return errs
}

const addressKey = (a: EndpointAddress) => `${a.ip}\u0000${a.targetRef?.uid ?? ''}`
const portKey = (p: EndpointPort) => JSON.stringify([p.name ?? '', p.port, p.protocol ?? '', p.appProtocol ?? ''])

/** LessEndpointAddress: by IP (as text), then by target UID, an address without a target first. */
function compareAddresses(a: EndpointAddress, b: EndpointAddress): number {
  const byIP = compareUtf8(a.ip, b.ip)
  if (byIP !== 0) return byIP
  if (!b.targetRef) return a.targetRef ? 1 : 0
  if (!a.targetRef) return -1
  return compareUtf8(a.targetRef.uid ?? '', b.targetRef.uid ?? '')
}

/**
 * RepackSubsets: regroups addresses so that each subset holds the addresses offering exactly the same ports (an
 * address ready for a port in any input subset is ready), addresses sorted as kube sorts them. kube orders ports and
 * subsets by a hash; here they are ordered by port and by first address, which is as stable and easier to read.
 */
export function repackSubsets(subsets: readonly EndpointSubset[]): EndpointSubset[] {
  const addresses = new Map<string, EndpointAddress>()
  const ports = new Map<string, { port: EndpointPort | null; ready: Map<string, boolean> }>()
  const note = (a: EndpointAddress, port: EndpointPort | null, ready: boolean) => {
    const key = addressKey(a)
    if (!addresses.has(key)) addresses.set(key, structuredClone(a))
    const pk = port ? portKey(port) : ''
    let entry = ports.get(pk)
    if (!entry) ports.set(pk, (entry = { port, ready: new Map() }))
    if (entry.ready.get(key) !== true) entry.ready.set(key, ready)
  }
  for (const ss of subsets) {
    // Addresses without ports (headless services) are kept under a sentinel port.
    for (const port of ss.ports?.length ? ss.ports : [null]) {
      for (const a of ss.addresses ?? []) note(a, port, true)
      for (const a of ss.notReadyAddresses ?? []) note(a, port, false)
    }
  }
  const groups = new Map<string, { ready: Map<string, boolean>; ports: EndpointPort[] }>()
  for (const { port, ready } of ports.values()) {
    const key = JSON.stringify([...ready.entries()].sort())
    let g = groups.get(key)
    if (!g) groups.set(key, (g = { ready, ports: [] }))
    if (port) g.ports.push(structuredClone(port))
  }
  const out: EndpointSubset[] = []
  for (const g of groups.values()) {
    const ready: EndpointAddress[] = []
    const notReady: EndpointAddress[] = []
    for (const [key, isReady] of g.ready) (isReady ? ready : notReady).push(addresses.get(key)!)
    const ss: EndpointSubset = {}
    if (ready.length) ss.addresses = ready.sort(compareAddresses)
    if (notReady.length) ss.notReadyAddresses = notReady.sort(compareAddresses)
    if (g.ports.length)
      ss.ports = g.ports.sort(
        (a, b) =>
          a.port - b.port || compareUtf8(a.name ?? '', b.name ?? '') || compareUtf8(a.protocol ?? '', b.protocol ?? ''),
      )
    out.push(ss)
  }
  const first = (ss: EndpointSubset) => (ss.addresses ?? ss.notReadyAddresses ?? [])[0]
  return out.sort(
    (a, b) => compareAddresses(first(a)!, first(b)!) || (a.ports?.[0]?.port ?? 0) - (b.ports?.[0]?.port ?? 0),
  )
}

/** Stores subsets in canonical form, as kube's Canonicalize does after validation (so error paths name the input). */
function canonicalize(ep: EndpointsObject) {
  if (!ep.subsets || validateEndpoints(ep).length > 0) return
  const packed = repackSubsets(ep.subsets)
  if (packed.length) ep.subsets = packed
  else delete ep.subsets
}

/** formatEndpoints: up to three ip:port pairs, then "+ N more...". */
export function endpointsCell(ep: EndpointsObject): string {
  const subsets = ep.subsets ?? []
  if (subsets.length === 0) return '<none>'
  const list: string[] = []
  const max = 3
  let more = false
  let count = 0
  const hostPort = (ip: string, port: number) => (ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`)
  for (const ss of subsets) {
    const addrs = ss.addresses ?? []
    if (!ss.ports?.length) {
      count += addrs.length
      for (const a of addrs) {
        if (list.length === max) {
          more = true
          break
        }
        list.push(a.ip)
      }
      continue
    }
    for (const p of ss.ports) {
      count += addrs.length
      for (const a of addrs) {
        if (list.length === max) {
          more = true
          break
        }
        list.push(hostPort(a.ip, p.port))
      }
    }
  }
  const joined = list.join(',')
  if (more) return `${joined} + ${count - max} more...`
  return joined || '<none>'
}

const endpointsTable: TableConvertor<EndpointsObject> = {
  columns: [
    {
      name: 'Name',
      type: 'string',
      format: 'name',
      description: NAME_DOC,
      priority: 0,
    },
    {
      name: 'Endpoints',
      type: 'string',
      format: '',
      description:
        'The set of all endpoints is the union of all subsets. Addresses are placed into subsets according to the IPs they share. A single address with multiple ports, some of which are ready and some of which are not (because they come from different containers) will result in the address being displayed in different subsets for the different ports. No address will appear in both Addresses and NotReadyAddresses in the same subset. Sets of addresses and ports that comprise a service.',
      priority: 0,
    },
    { name: 'Age', type: 'string', format: '', description: CREATION_DOC, priority: 0 },
  ],
  cells: (ep, now) => [ep.metadata.name, endpointsCell(ep), age(ep.metadata.creationTimestamp, now)],
}

export const endpointsStrategy: Strategy<EndpointsObject> = {
  validateName: nameIsDNSSubdomain,
  applyDefaults(ep) {
    for (const ss of ep.subsets ?? []) for (const p of ss.ports ?? []) p.protocol ??= 'TCP'
  },
  prepareForCreate: canonicalize,
  validate: validateEndpoints,
  prepareForUpdate: canonicalize,
  validateUpdate: validateEndpoints,
  selectableFields: (ep) => ({
    'metadata.name': ep.metadata.name ?? '',
    'metadata.namespace': ep.metadata.namespace ?? '',
  }),
  fieldSelectorNames: ['metadata.name', 'metadata.namespace'],
  allowUnconditionalUpdate: true,
  table: endpointsTable,
}
