// PodDisruptionBudgets (policy/v1) run the shared conformance suite; the disruption controller writes each new
// budget's status (observedGeneration, the DisruptionAllowed condition) right after its create.
import { req, waitFor } from '../helpers'
import { conformanceSuite } from './cases'

conformanceSuite({
  plural: 'poddisruptionbudgets',
  kind: 'PodDisruptionBudget',
  group: 'policy',
  namespaced: true,
  valid: (name, labels = {}) => ({
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name, labels },
    spec: { minAvailable: 1, selector: { matchLabels: { app: 'conf' } } },
  }),
  invalid: (name) => ({
    body: {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name },
      spec: { minAvailable: -1, selector: { matchLabels: { app: 'conf' } } },
    },
    field: 'spec.minAvailable',
    reason: 'FieldValueInvalid',
  }),
  // A label, not the spec: a spec change bumps the generation and the controller then writes the status.
  mutate: (obj) => {
    const copy = structuredClone(obj)
    copy.metadata.labels = { ...copy.metadata.labels, mutated: copy.metadata.labels?.mutated === 'a' ? 'b' : 'a' }
    return copy
  },
  mutated: (obj) => obj.metadata.labels?.mutated !== undefined,
  deleteAnswersStatus: true,
  settle: (path) =>
    waitFor(`${path} to settle`, async () => {
      const g = await req('GET', path)
      return g.json?.status?.observedGeneration === g.json?.metadata?.generation ? g.json : undefined
    }),
})
