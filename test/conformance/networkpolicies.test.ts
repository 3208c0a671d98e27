// NetworkPolicies (networking.k8s.io/v1) run the shared conformance suite.
import { conformanceSuite } from './cases'

conformanceSuite({
  plural: 'networkpolicies',
  kind: 'NetworkPolicy',
  group: 'networking.k8s.io',
  namespaced: true,
  deleteAnswersStatus: true,
  valid: (name, labels = {}) => ({
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name, labels },
    spec: { podSelector: { matchLabels: { app: 'db' } }, ingress: [{ ports: [{ port: 5432 }] }] },
  }),
  invalid: (name) => ({
    body: {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name },
      spec: { podSelector: {}, policyTypes: ['Sideways'] },
    },
    field: 'spec.policyTypes[0]',
    reason: 'FieldValueNotSupported',
  }),
  mutate: (obj) => ({
    ...structuredClone(obj),
    spec: { ...obj.spec, egress: [{ to: [{ ipBlock: { cidr: '10.0.0.0/8' } }] }] },
  }),
  mutated: (obj) => obj.spec?.policyTypes?.includes('Ingress') && obj.metadata?.generation === 2,
})
