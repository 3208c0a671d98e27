// Namespaces run the shared conformance suite. Deleting one is a process (Terminating, emptied, removed by the
// cluster object's alarm), so a deleted namespace is awaited until it is gone.
import { conformanceSuite, pollGone } from './cases'

conformanceSuite({
  plural: 'namespaces',
  kind: 'Namespace',
  namespaced: false,
  valid: (name, labels = {}) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels }, spec: {} }),
  invalid: (name) => ({
    body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: `Bad_${name}` } },
    field: 'metadata.name',
    reason: 'FieldValueInvalid',
  }),
  mutate: (obj) => {
    const copy = structuredClone(obj)
    const n = Number(copy.metadata.annotations?.touched ?? '0')
    copy.metadata.annotations = { ...copy.metadata.annotations, touched: String(n + 1) }
    return copy
  },
  mutated: (obj) => obj.metadata.annotations?.touched !== undefined,
  noDeleteCollection: true,
  awaitGone: (name) => pollGone(`/api/v1/namespaces/${name}`),
})
