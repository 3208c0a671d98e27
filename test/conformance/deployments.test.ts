// apps/v1 Deployments run the shared conformance suite (zero replicas: the deployment controller makes an empty ReplicaSet).
import { req, waitFor } from '../helpers'
import { conformanceSuite } from './cases'

const template = { metadata: { labels: { app: 'conf' } }, spec: { containers: [{ name: 'c', image: 'nginx:1.25' }] } }

conformanceSuite({
  plural: 'deployments',
  kind: 'Deployment',
  group: 'apps',
  namespaced: true,
  valid: (name, labels = {}) => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels },
    spec: { replicas: 0, selector: { matchLabels: { app: 'conf' } }, template },
  }),
  invalid: (name) => ({
    body: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name },
      spec: { replicas: -1, selector: { matchLabels: { app: 'conf' } }, template },
    },
    field: 'spec.replicas',
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
  // The controller records observedGeneration right after the create.
  settle: (path) =>
    waitFor(`${path} to settle`, async () => {
      const g = await req('GET', path)
      return g.json?.status?.observedGeneration === g.json?.metadata?.generation ? g.json : undefined
    }),
})
