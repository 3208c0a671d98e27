// The review kinds of authentication.k8s.io/v1 and authorization.k8s.io/v1 as rows of the kind table: create-only,
// never stored (home 'none': src/api/identity-apis.ts serves their create, the dispatcher refuses every other verb),
// with the discovery data a 1.33 cluster serves for them (no short names, no categories, no storage version hash:
// kube's review storages are not stores).
import {
  LocalSubjectAccessReview,
  SelfSubjectAccessReview,
  SelfSubjectRulesReview,
  SubjectAccessReview,
} from '../schema/authorization'
import { SelfSubjectReview, TokenReview } from '../schema/authentication'
import type { ResourceDef } from './resource'
import type { Strategy } from './strategy'

/** No store ever plans a write of these kinds; the hooks exist only because every row carries a strategy. */
const notStored: Strategy = {
  validateName: () => [],
  applyDefaults: () => undefined,
  prepareForCreate: () => undefined,
  validate: () => [],
  prepareForUpdate: () => undefined,
  validateUpdate: () => [],
  selectableFields: () => ({}),
  fieldSelectorNames: [],
  allowUnconditionalUpdate: false,
  table: { columns: [], cells: () => [] },
}

function row(group: string, kind: string, namespaced: boolean, schema: ResourceDef['schema']): ResourceDef {
  return {
    group,
    version: 'v1',
    kind,
    listKind: `${kind}List`,
    plural: `${kind.toLowerCase()}s`,
    singular: kind.toLowerCase(),
    shortNames: [],
    categories: [],
    namespaced,
    verbs: ['create'],
    schema,
    strategy: notStored,
    home: 'none',
    returnDeletedObject: false,
  }
}

/** The six review kinds, each group's in kube's discovery order (alphabetical by resource). */
export function reviewResourceRows(): ResourceDef[] {
  const authn = 'authentication.k8s.io'
  const authz = 'authorization.k8s.io'
  return [
    row(authn, 'SelfSubjectReview', false, SelfSubjectReview),
    row(authn, 'TokenReview', false, TokenReview),
    row(authz, 'LocalSubjectAccessReview', true, LocalSubjectAccessReview),
    row(authz, 'SelfSubjectAccessReview', false, SelfSubjectAccessReview),
    row(authz, 'SelfSubjectRulesReview', false, SelfSubjectRulesReview),
    row(authz, 'SubjectAccessReview', false, SubjectAccessReview),
  ]
}
