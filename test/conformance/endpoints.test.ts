// Endpoints run the shared conformance suite (hand-written Endpoints: no service, so no controller interferes).
import { conformanceSuite } from './cases'

conformanceSuite({
  plural: 'endpoints',
  kind: 'Endpoints',
  namespaced: true,
  valid: (name, labels = {}) => ({
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: { name, labels },
    subsets: [{ addresses: [{ ip: '10.1.2.3' }], ports: [{ port: 80, protocol: 'TCP' }] }],
  }),
  invalid: (name) => ({
    body: {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name },
      subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ port: 80 }] }],
    },
    field: 'subsets[0].addresses[0].ip',
    reason: 'FieldValueInvalid',
  }),
  mutate: (obj) => {
    const copy = structuredClone(obj)
    const a = copy.subsets[0].addresses[0]
    a.ip = a.ip === '10.1.2.4' ? '10.1.2.5' : '10.1.2.4'
    return copy
  },
  mutated: (obj) => obj.subsets[0].addresses[0].ip !== '10.1.2.3',
  deleteAnswersStatus: true,
  unknownField: {
    path: 'subsets[0].foo',
    add: (obj) => ({ ...obj, subsets: [{ ...obj.subsets[0], foo: 'bar' }] }),
  },
})
