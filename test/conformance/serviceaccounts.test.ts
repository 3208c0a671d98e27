// ServiceAccounts run the shared conformance suite.
import { conformanceSuite } from './cases'

conformanceSuite({
  plural: 'serviceaccounts',
  kind: 'ServiceAccount',
  namespaced: true,
  valid: (name, labels = {}) => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, labels } }),
  invalid: (name) => ({
    body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, labels: { 'bad key!': 'x' } } },
    field: 'metadata.labels',
    reason: 'FieldValueInvalid',
  }),
  mutate: (obj) => ({ ...structuredClone(obj), automountServiceAccountToken: !obj.automountServiceAccountToken }),
  mutated: (obj) => obj.automountServiceAccountToken === true,
  unknownField: { path: 'foo', add: (obj) => ({ ...obj, foo: 'bar' }) },
})
