// IngressClasses (networking.k8s.io/v1, cluster-scoped) run the shared conformance suite.
import { conformanceSuite } from './cases'

conformanceSuite({
  plural: 'ingressclasses',
  kind: 'IngressClass',
  group: 'networking.k8s.io',
  namespaced: false,
  deleteAnswersStatus: true,
  valid: (name, labels = {}) => ({
    apiVersion: 'networking.k8s.io/v1',
    kind: 'IngressClass',
    metadata: { name, labels },
    spec: { controller: 'example.com/ingress' },
  }),
  invalid: (name) => ({
    body: {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'IngressClass',
      metadata: { name },
      spec: { controller: 'nope' },
    },
    field: 'spec.controller',
    reason: 'FieldValueInvalid',
  }),
  mutate: (obj) => ({
    ...structuredClone(obj),
    spec: { ...obj.spec, parameters: { kind: 'Config', name: 'c' } },
  }),
  mutated: (obj) => obj.spec?.parameters?.scope === 'Cluster',
})
