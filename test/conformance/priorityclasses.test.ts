// PriorityClasses (scheduling.k8s.io/v1, cluster-scoped) run the shared conformance suite.
import { conformanceSuite } from './cases'

conformanceSuite({
  plural: 'priorityclasses',
  kind: 'PriorityClass',
  group: 'scheduling.k8s.io',
  namespaced: false,
  deleteAnswersStatus: true,
  valid: (name, labels = {}) => ({
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name, labels },
    value: 1000,
  }),
  invalid: (name) => ({
    body: { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value: 1000000001 },
    field: 'value',
    reason: 'FieldValueForbidden',
  }),
  unknownField: { path: 'foo', add: (obj) => ({ ...obj, foo: 1 }) },
  mutate: (obj) => ({ ...structuredClone(obj), description: 'for the web tier' }),
  mutated: (obj) => obj.description === 'for the web tier' && obj.preemptionPolicy === 'PreemptLowerPriority',
})
