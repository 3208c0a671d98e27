// Pods run the shared conformance suite. They name a scheduler that does not exist, so no controller (scheduler,
// simulated kubelet) touches them and every change a case sees is its own.
import { conformanceSuite } from './cases'
import { pod } from '../helpers'

conformanceSuite({
  plural: 'pods',
  kind: 'Pod',
  namespaced: true,
  valid: (name, labels = {}) => pod(name, labels, { schedulerName: 'kubeflare-test-none' }),
  invalid: (name) => ({
    body: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name },
      spec: { schedulerName: 'kubeflare-test-none', containers: [{ name: 'c' }] },
    },
    field: 'spec.containers[0].image',
    reason: 'FieldValueRequired',
  }),
  mutate: (obj) => {
    const copy = structuredClone(obj)
    const c = copy.spec.containers[0]
    c.image = c.image === 'nginx:1.26' ? 'nginx:1.27' : 'nginx:1.26'
    return copy
  },
  mutated: (obj) => obj.spec.containers[0].image !== 'nginx:1.25',
})
