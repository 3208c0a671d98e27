// EndpointSlices (discovery.k8s.io/v1) run the shared conformance suite under /apis/discovery.k8s.io/v1
// (hand-written slices: no managed-by label and no service, so the controller leaves them alone).
import { conformanceSuite } from './cases'

conformanceSuite({
  plural: 'endpointslices',
  kind: 'EndpointSlice',
  group: 'discovery.k8s.io',
  version: 'v1',
  namespaced: true,
  valid: (name, labels = {}) => ({
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name, labels },
    addressType: 'IPv4',
    endpoints: [{ addresses: ['10.1.2.3'], conditions: { ready: true } }],
    ports: [{ name: 'http', port: 80, protocol: 'TCP' }],
  }),
  invalid: (name) => ({
    body: {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { name },
      addressType: 'IPv4',
      endpoints: [{ addresses: ['127.0.0.1'] }],
    },
    field: 'endpoints[0].addresses[0]',
    reason: 'FieldValueInvalid',
  }),
  mutate: (obj) => {
    const copy = structuredClone(obj)
    const e = copy.endpoints[0]
    e.addresses = [e.addresses[0] === '10.1.2.4' ? '10.1.2.5' : '10.1.2.4']
    return copy
  },
  mutated: (obj) => obj.endpoints[0].addresses[0] !== '10.1.2.3',
  deleteAnswersStatus: true,
  unknownField: {
    path: 'endpoints[0].foo',
    add: (obj) => ({ ...obj, endpoints: [{ ...obj.endpoints[0], foo: 'bar' }] }),
  },
})
