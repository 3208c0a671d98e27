// Secrets run the shared conformance suite.
import { conformanceSuite } from './cases'

conformanceSuite({
  plural: 'secrets',
  kind: 'Secret',
  namespaced: true,
  deleteAnswersStatus: true,
  valid: (name, labels = {}) => ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, labels },
    data: { password: 'czNjcjN0' },
  }),
  invalid: (name) => ({
    body: { apiVersion: 'v1', kind: 'Secret', metadata: { name }, type: 'kubernetes.io/tls', data: {} },
    field: 'data[tls.crt]',
    reason: 'FieldValueRequired',
  }),
  mutate: (obj) => ({ ...structuredClone(obj), data: { ...obj.data, extra: 'eWVz' } }),
  mutated: (obj) => obj.data?.extra === 'eWVz',
  unknownField: { path: 'foo', add: (obj) => ({ ...obj, foo: 'bar' }) },
})
