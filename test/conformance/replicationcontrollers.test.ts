// ReplicationControllers run the shared conformance suite (zero replicas: the replication loop creates no pods).
import { req, waitFor } from '../helpers'
import { conformanceSuite } from './cases'

const template = { metadata: { labels: { app: 'conf' } }, spec: { containers: [{ name: 'c', image: 'nginx:1.25' }] } }

conformanceSuite({
  plural: 'replicationcontrollers',
  kind: 'ReplicationController',
  namespaced: true,
  valid: (name, labels = {}) => ({
    apiVersion: 'v1',
    kind: 'ReplicationController',
    metadata: { name, labels },
    spec: { replicas: 0, selector: { app: 'conf' }, template },
  }),
  invalid: (name) => ({
    body: {
      apiVersion: 'v1',
      kind: 'ReplicationController',
      metadata: { name },
      spec: { replicas: -1, selector: { app: 'conf' }, template },
    },
    field: 'spec.replicas',
    reason: 'FieldValueInvalid',
  }),
  // A label, not the spec: a spec change bumps the generation and the replication manager then writes the status,
  // which the update cases would see as someone else's write.
  mutate: (obj) => {
    const copy = structuredClone(obj)
    copy.metadata.labels = { ...copy.metadata.labels, mutated: copy.metadata.labels?.mutated === 'a' ? 'b' : 'a' }
    return copy
  },
  mutated: (obj) => obj.metadata.labels?.mutated !== undefined,
  deleteAnswersStatus: true,
  // The replication manager records observedGeneration (and zero counts) right after the create.
  settle: (path) =>
    waitFor(`${path} to settle`, async () => {
      const g = await req('GET', path)
      return g.json?.status?.observedGeneration === g.json?.metadata?.generation ? g.json : undefined
    }),
})
