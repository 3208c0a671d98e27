// Nodes run the shared conformance suite (tainted NoSchedule, so no pod of another test lands on them).
import { conformanceSuite } from './cases'

const taint = { key: 'conformance.test/no-pods', effect: 'NoSchedule' }

conformanceSuite({
  plural: 'nodes',
  kind: 'Node',
  namespaced: false,
  valid: (name, labels = {}) => ({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels },
    spec: { taints: [taint] },
  }),
  invalid: (name) => ({
    body: { apiVersion: 'v1', kind: 'Node', metadata: { name }, spec: { taints: [{ key: 'x', effect: 'Sometimes' }] } },
    field: 'spec.taints[0].effect',
    reason: 'FieldValueNotSupported',
  }),
  mutate: (obj) => {
    const copy = structuredClone(obj)
    copy.spec.unschedulable = !copy.spec.unschedulable
    return copy
  },
  mutated: (obj) => obj.spec.unschedulable === true,
  deleteAnswersStatus: true,
})
