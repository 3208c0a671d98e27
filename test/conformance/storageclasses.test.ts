// StorageClasses (storage.k8s.io/v1, cluster-scoped) run the shared conformance suite.
import { conformanceSuite } from './cases'

conformanceSuite({
  plural: 'storageclasses',
  kind: 'StorageClass',
  group: 'storage.k8s.io',
  namespaced: false,
  deleteAnswersStatus: true,
  valid: (name, labels = {}) => ({
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name, labels },
    provisioner: 'example.com/ssd',
    parameters: { type: 'ssd' },
  }),
  invalid: (name) => ({
    body: { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name }, provisioner: '' },
    field: 'provisioner',
    reason: 'FieldValueRequired',
  }),
  unknownField: { path: 'foo', add: (obj) => ({ ...obj, foo: 1 }) },
  mutate: (obj) => ({ ...structuredClone(obj), allowVolumeExpansion: true }),
  mutated: (obj) => obj.allowVolumeExpansion === true && obj.volumeBindingMode === 'Immediate',
})
