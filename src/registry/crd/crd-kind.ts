// apiextensions.k8s.io/v1 CustomResourceDefinition as a row of the kind table: cluster-scoped, stored in the cluster
// Durable Object, with /status, the short names and category kube serves it with (crd, crds; api-extensions).
import { CustomResourceDefinition } from '../../schema/apiextensions'
import type { ResourceDef } from '../resource'
import { checkRules } from '../custom/cel/cel-rules'
import { validateDefaults } from '../custom/defaults-validation'
import type { CrdCheckers } from './crd-validation'
import { crdStrategy } from './crd-strategy'

const CRD_RESOURCE = 'customresourcedefinitions'

export function crdResourceRows(): ResourceDef[] {
  const checkers: CrdCheckers = { checkDefaults: validateDefaults, checkRules }
  return [
    {
      group: 'apiextensions.k8s.io',
      version: 'v1',
      kind: 'CustomResourceDefinition',
      listKind: 'CustomResourceDefinitionList',
      plural: CRD_RESOURCE,
      singular: 'customresourcedefinition',
      shortNames: ['crd', 'crds'],
      categories: ['api-extensions'],
      namespaced: false,
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      schema: CustomResourceDefinition,
      strategy: crdStrategy(checkers),
      home: 'cluster',
      returnDeletedObject: true,
      storageVersionHash: 'M5uH+AlWATY=',
      subresources: [{ name: 'status', kind: 'CustomResourceDefinition', verbs: ['get', 'patch', 'update'] }],
    },
  ]
}
