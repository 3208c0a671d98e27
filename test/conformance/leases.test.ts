// Leases (coordination.k8s.io/v1) run the shared conformance suite.
import { conformanceSuite } from './cases'

conformanceSuite({
  plural: 'leases',
  kind: 'Lease',
  group: 'coordination.k8s.io',
  namespaced: true,
  deleteAnswersStatus: true,
  valid: (name, labels = {}) => ({
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name, labels },
    spec: { holderIdentity: 'a', leaseDurationSeconds: 15 },
  }),
  invalid: (name) => ({
    body: {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name },
      spec: { leaseDurationSeconds: 0 },
    },
    field: 'spec.leaseDurationSeconds',
    reason: 'FieldValueInvalid',
  }),
  mutate: (obj) => ({ ...structuredClone(obj), spec: { ...obj.spec, holderIdentity: 'b' } }),
  mutated: (obj) => obj.spec?.holderIdentity === 'b',
})
