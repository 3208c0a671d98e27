// PersistentVolumes (cluster-scoped) run the shared conformance suite.
import { conformanceSuite } from './cases'

conformanceSuite({
  plural: 'persistentvolumes',
  kind: 'PersistentVolume',
  namespaced: false,
  valid: (name, labels = {}) => ({
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name, labels },
    spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/data' } },
  }),
  invalid: (name) => ({
    body: {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name },
      spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'] },
    },
    field: 'spec',
    reason: 'FieldValueRequired',
  }),
  mutate: (obj) => ({ ...structuredClone(obj), spec: { ...obj.spec, mountOptions: ['hard'] } }),
  mutated: (obj) => obj.spec?.mountOptions?.[0] === 'hard',
})
