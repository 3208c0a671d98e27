// Ingresses (networking.k8s.io/v1) run the shared conformance suite.
import { conformanceSuite } from './cases'

const backend = { service: { name: 'web', port: { number: 80 } } }

conformanceSuite({
  plural: 'ingresses',
  kind: 'Ingress',
  group: 'networking.k8s.io',
  namespaced: true,
  deleteAnswersStatus: true,
  valid: (name, labels = {}) => ({
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { name, labels },
    spec: { rules: [{ host: 'a.example.com', http: { paths: [{ path: '/', pathType: 'Prefix', backend }] } }] },
  }),
  invalid: (name) => ({
    body: { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name }, spec: {} },
    field: 'spec',
    reason: 'FieldValueInvalid',
  }),
  mutate: (obj) => ({ ...structuredClone(obj), spec: { ...obj.spec, defaultBackend: backend } }),
  mutated: (obj) => obj.spec?.defaultBackend?.service?.name === 'web',
})
