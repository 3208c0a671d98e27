// PersistentVolumeClaims run the shared conformance suite.
import { conformanceSuite } from './cases'

conformanceSuite({
  plural: 'persistentvolumeclaims',
  kind: 'PersistentVolumeClaim',
  namespaced: true,
  valid: (name, labels = {}) => ({
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name, labels },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
  }),
  invalid: (name) => ({
    body: {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name },
      spec: { resources: { requests: { storage: '1Gi' } } },
    },
    field: 'spec.accessModes',
    reason: 'FieldValueRequired',
  }),
  // Only a bound claim's storage request may change: metadata is what a client changes on a pending claim.
  mutate: (obj) => ({ ...structuredClone(obj), metadata: { ...obj.metadata, annotations: { touched: 'yes' } } }),
  mutated: (obj) => obj.metadata.annotations?.touched === 'yes',
})
