// ResourceQuotas run the shared conformance suite.
import { conformanceSuite } from './cases'

conformanceSuite({
  plural: 'resourcequotas',
  kind: 'ResourceQuota',
  namespaced: true,
  valid: (name, labels = {}) => ({
    apiVersion: 'v1',
    kind: 'ResourceQuota',
    metadata: { name, labels },
    spec: { hard: { configmaps: '100' } },
  }),
  invalid: (name) => ({
    body: { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name }, spec: { hard: { widgets: '1' } } },
    field: 'spec.hard[widgets]',
    reason: 'FieldValueInvalid',
  }),
  mutate: (obj) => ({ ...structuredClone(obj), spec: { hard: { configmaps: '200' } } }),
  mutated: (obj) => (obj.spec as { hard: { configmaps: string } }).hard.configmaps === '200',
  unknownField: { path: 'spec.foo', add: (obj) => ({ ...obj, spec: { ...(obj.spec as object), foo: 'bar' } }) },
})
