// Services run the shared conformance suite.
import { conformanceSuite } from './cases'

conformanceSuite({
  plural: 'services',
  kind: 'Service',
  namespaced: true,
  valid: (name, labels = {}) => ({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, labels },
    spec: { selector: { app: name }, ports: [{ port: 80, targetPort: 8080 }] },
  }),
  invalid: (name) => ({
    body: { apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { ports: [{ port: 0 }] } },
    field: 'spec.ports[0].port',
    reason: 'FieldValueInvalid',
  }),
  mutate: (obj) => {
    const copy = structuredClone(obj)
    copy.spec.sessionAffinity = copy.spec.sessionAffinity === 'ClientIP' ? 'None' : 'ClientIP'
    if (copy.spec.sessionAffinity === 'None') delete copy.spec.sessionAffinityConfig
    return copy
  },
  mutated: (obj) => obj.spec.sessionAffinity !== 'None',
})
