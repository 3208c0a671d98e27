// The EndpointSlice strategy (discovery.k8s.io/v1): defaults, validation (addressType, addresses of that type,
// ports), generation, selectable fields and the `kubectl get endpointslices` table.
import { CREATION_DOC, NAME_DOC } from '../table-column-docs'
import type { Strategy, TableConvertor } from '../strategy'
import type { EndpointSlice, SliceEndpoint, SlicePort } from '../../schema/endpoint-slice'
import type { ObjectMeta } from '../../schema/meta'
import { fieldError, FieldPath, type FieldError } from '../field-errors'
import { nameIsDNSSubdomain } from '../validation/names'
import { age } from '../human-duration'
import { deepEqual } from '../deep-equal'
import {
  ipFamily,
  nameIsSubdomain,
  validateDNS1123Label,
  validateDNS1123Subdomain,
  validateIP,
  validateQualifiedName,
} from './pod/pod-validation-formats'
import { validateNonSpecialIP } from './service/ip-checks'

export type EndpointSliceObject = Omit<EndpointSlice, 'metadata'> & { metadata: ObjectMeta }

/** The label naming the service a slice belongs to; kubectl describe svc (1.32+) selects slices by it. */
export const SERVICE_NAME_LABEL = 'kubernetes.io/service-name'
export const MANAGED_BY_LABEL = 'endpointslice.kubernetes.io/managed-by'
export const CONTROLLER_NAME = 'endpointslice-controller.k8s.io'

const ADDRESS_TYPES = ['FQDN', 'IPv4', 'IPv6']
const PROTOCOLS = ['SCTP', 'TCP', 'UDP']
const MAX_ENDPOINTS = 1000
const MAX_ADDRESSES = 100
const MAX_PORTS = 20000

function validateAddress(address: string, type: string, path: FieldPath): FieldError[] {
  const field = path.toString()
  if (type === 'FQDN') {
    const name = address.endsWith('.') ? address.slice(0, -1) : address
    if (name === '') return [fieldError.required(field)]
    const errs = validateDNS1123Subdomain(name, path)
    if (errs.length) return errs
    if (name.split('.').length < 2)
      return [fieldError.invalid(field, name, 'should be a domain with at least two segments separated by dots')]
    return []
  }
  if (type !== 'IPv4' && type !== 'IPv6') return [] // unknown types are reported once, on addressType
  const ipErrs = validateIP(address, path)
  if (ipErrs.length) return ipErrs
  const want = type === 'IPv4' ? 4 : 6
  if (ipFamily(address) !== want) return [fieldError.invalid(field, address, `must be an ${type} address`)]
  return validateNonSpecialIP(address, field)
}

function validateEndpoint(ep: SliceEndpoint, type: string, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const addresses = ep.addresses ?? []
  const at = path.child('addresses')
  if (addresses.length === 0) errs.push(fieldError.required(at.toString(), 'must contain at least 1 address'))
  else if (addresses.length > MAX_ADDRESSES)
    errs.push(fieldError.tooMany(at.toString(), addresses.length, MAX_ADDRESSES))
  addresses.forEach((a, i) => errs.push(...validateAddress(a, type, at.index(i))))
  if (ep.nodeName !== undefined) {
    for (const m of nameIsSubdomain(ep.nodeName, false))
      errs.push(fieldError.invalid(path.child('nodeName').toString(), ep.nodeName, m))
  }
  if (ep.hostname !== undefined) errs.push(...validateDNS1123Label(ep.hostname, path.child('hostname')))
  return errs
}

function validatePorts(ports: readonly SlicePort[]): FieldError[] {
  const path = new FieldPath('ports')
  if (ports.length > MAX_PORTS) return [fieldError.tooMany(path.toString(), ports.length, MAX_PORTS)]
  const errs: FieldError[] = []
  const names = new Set<string>()
  ports.forEach((p, i) => {
    const at = path.index(i)
    const name = p.name ?? ''
    if (name) errs.push(...validateDNS1123Label(name, at.child('name')))
    if (names.has(name)) errs.push(fieldError.duplicate(at.child('name').toString(), name))
    names.add(name)
    if (!p.protocol) errs.push(fieldError.required(at.child('protocol').toString()))
    else if (!PROTOCOLS.includes(p.protocol))
      errs.push(fieldError.notSupported(at.child('protocol').toString(), p.protocol, PROTOCOLS))
    if (p.appProtocol !== undefined) errs.push(...validateQualifiedName(p.appProtocol, at.child('appProtocol')))
  })
  return errs
}

/** ValidateEndpointSlice: endpoints and ports (addressType is checked on create, immutable on update). */
function validateSlice(slice: EndpointSliceObject): FieldError[] {
  const errs: FieldError[] = []
  const endpoints = slice.endpoints ?? []
  if (endpoints.length > MAX_ENDPOINTS) errs.push(fieldError.tooMany('endpoints', endpoints.length, MAX_ENDPOINTS))
  else
    endpoints.forEach((ep, i) =>
      errs.push(...validateEndpoint(ep, slice.addressType ?? '', new FieldPath('endpoints').index(i))),
    )
  errs.push(...validatePorts(slice.ports ?? []))
  return errs
}

function validateAddressType(type: string | undefined): FieldError[] {
  if (!type) return [fieldError.required('addressType')]
  if (!ADDRESS_TYPES.includes(type)) return [fieldError.notSupported('addressType', type, ADDRESS_TYPES)]
  return []
}

/** formatDiscoveryPorts / formatDiscoveryEndpoints: up to three, then "+ N more...", "<unset>" when empty. */
function listWithMore(items: string[]): string {
  const max = 3
  if (items.length > max) return `${items.slice(0, max).join(',')} + ${items.length - max} more...`
  return items.join(',') || '<unset>'
}
const slicePortsCell = (s: EndpointSliceObject) =>
  listWithMore((s.ports ?? []).map((p) => (p.port !== undefined ? String(p.port) : p.name || '*')))
const sliceEndpointsCell = (s: EndpointSliceObject) =>
  listWithMore((s.endpoints ?? []).flatMap((e) => e.addresses ?? []))

const endpointSliceTable: TableConvertor<EndpointSliceObject> = {
  columns: [
    { name: 'Name', type: 'string', format: 'name', description: NAME_DOC, priority: 0 },
    {
      name: 'AddressType',
      type: 'string',
      format: '',
      description:
        'addressType specifies the type of address carried by this EndpointSlice. All addresses in this slice must be the same type. This field is immutable after creation. The following address types are currently supported: * IPv4: Represents an IPv4 Address. * IPv6: Represents an IPv6 Address. * FQDN: Represents a Fully Qualified Domain Name.',
      priority: 0,
    },
    {
      name: 'Ports',
      type: 'string',
      format: '',
      description:
        'ports specifies the list of network ports exposed by each endpoint in this slice. Each port must have a unique name. When ports is empty, it indicates that there are no defined ports. When a port is defined with a nil port value, it indicates "all ports". Each slice may include a maximum of 100 ports.',
      priority: 0,
    },
    {
      name: 'Endpoints',
      type: 'string',
      format: '',
      description:
        'endpoints is a list of unique endpoints in this slice. Each slice may include a maximum of 1000 endpoints.',
      priority: 0,
    },
    { name: 'Age', type: 'string', format: '', description: CREATION_DOC, priority: 0 },
  ],
  cells: (s, now) => [
    s.metadata.name,
    s.addressType,
    slicePortsCell(s),
    sliceEndpointsCell(s),
    age(s.metadata.creationTimestamp, now),
  ],
}

export const endpointSliceStrategy: Strategy<EndpointSliceObject> = {
  validateName: nameIsDNSSubdomain,
  applyDefaults(s) {
    // SetDefaults_EndpointPort: an unnamed port is named "", TCP by default.
    for (const p of s.ports ?? []) {
      p.name ??= ''
      p.protocol ??= 'TCP'
    }
  },
  prepareForCreate(s) {
    s.metadata.generation = 1
  },
  validate: (s) => [...validateSlice(s), ...validateAddressType(s.addressType)],
  prepareForUpdate(s, old) {
    const spec = (o: EndpointSliceObject) => [o.addressType, o.endpoints ?? [], o.ports ?? []]
    s.metadata.generation = (old.metadata.generation ?? 1) + (deepEqual(spec(s), spec(old)) ? 0 : 1)
  },
  validateUpdate(s, old) {
    const errs = validateSlice(s)
    if (s.addressType !== old.addressType)
      errs.push(fieldError.invalid('addressType', s.addressType, 'field is immutable'))
    return errs
  },
  selectableFields: (s) => ({
    'metadata.name': s.metadata.name ?? '',
    'metadata.namespace': s.metadata.namespace ?? '',
  }),
  fieldSelectorNames: ['metadata.name', 'metadata.namespace'],
  allowUnconditionalUpdate: true,
  table: endpointSliceTable,
}
