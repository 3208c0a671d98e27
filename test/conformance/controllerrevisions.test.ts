// ControllerRevisions (apps/v1) run the shared conformance suite: stored as written, nothing writes them afterwards
// (no controller owns these).
import { conformanceSuite } from './cases'

conformanceSuite({
  plural: 'controllerrevisions',
  kind: 'ControllerRevision',
  group: 'apps',
  namespaced: true,
  valid: (name, labels = {}) => ({
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: { name, labels },
    data: { spec: { template: { $patch: 'replace' } } },
    revision: 1,
  }),
  invalid: (name) => ({
    body: { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name }, revision: 1 },
    field: 'data',
    reason: 'FieldValueRequired',
  }),
  mutate: (obj) => ({ ...structuredClone(obj), revision: (obj.revision ?? 0) + 1 }),
  mutated: (obj) => obj.revision > 1,
  deleteAnswersStatus: true,
  unknownField: { path: 'foo', add: (obj) => ({ ...obj, foo: 'bar' }) },
})
