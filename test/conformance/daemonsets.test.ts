// DaemonSets (apps/v1) run the shared conformance suite. Their pods select a node label no node has, so the daemon
// set controller runs none; it still records observedGeneration right after the create.
import { req, waitFor } from '../helpers'
import { conformanceSuite } from './cases'

const template = {
  metadata: { labels: { app: 'conf' } },
  spec: { nodeSelector: { 'kubeflare.test/none': 'none' }, containers: [{ name: 'c', image: 'nginx:1.25' }] },
}

conformanceSuite({
  plural: 'daemonsets',
  kind: 'DaemonSet',
  group: 'apps',
  namespaced: true,
  valid: (name, labels = {}) => ({
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name, labels },
    spec: { selector: { matchLabels: { app: 'conf' } }, template },
  }),
  invalid: (name) => ({
    body: {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name },
      spec: { selector: { matchLabels: { app: 'conf' } }, template, minReadySeconds: -1 },
    },
    field: 'spec.minReadySeconds',
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
