// StatefulSets (apps/v1) run the shared conformance suite (zero replicas: the controller creates no pods, and records
// its status and first revision right after the create).
import { req, waitFor } from '../helpers'
import { conformanceSuite } from './cases'

const template = { metadata: { labels: { app: 'conf' } }, spec: { containers: [{ name: 'c', image: 'nginx:1.25' }] } }

conformanceSuite({
  plural: 'statefulsets',
  kind: 'StatefulSet',
  group: 'apps',
  namespaced: true,
  valid: (name, labels = {}) => ({
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name, labels },
    spec: { replicas: 0, serviceName: 'conf', selector: { matchLabels: { app: 'conf' } }, template },
  }),
  invalid: (name) => ({
    body: {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name },
      spec: { replicas: -1, selector: { matchLabels: { app: 'conf' } }, template },
    },
    field: 'spec.replicas',
    reason: 'FieldValueInvalid',
  }),
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
