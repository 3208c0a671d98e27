// ObjectMeta validation: each case lists the exact `field: message` lines kube-apiserver would put in the Status.
import { describe, expect, it } from 'vitest'
import { FieldPath, renderFieldError, type FieldError } from '../../../src/registry/field-errors'
import type { ObjectMeta } from '../../../src/schema/meta'
import { nameIsDNS1035Label, nameIsDNSSubdomain } from '../../../src/registry/validation/names'
import {
  validateAnnotations,
  validateLabels,
  validateObjectMeta,
  validateObjectMetaUpdate,
  usesCoreFinalizerRule,
  type MetaKind,
  type MetaValidationOptions,
} from '../../../src/registry/validation/object-meta'

const SUBDOMAIN = String.raw`a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`
const LABEL = String.raw`a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`
const QUALIFIED = String.raw`must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`

const POD: MetaKind = { group: '', kind: 'Pod' }
const pod: MetaValidationOptions = { namespaced: true, validateName: nameIsDNSSubdomain, type: POD }
const service: MetaValidationOptions = {
  namespaced: true,
  validateName: nameIsDNS1035Label,
  type: { group: '', kind: 'Service' },
}
const clusterScoped: MetaValidationOptions = {
  namespaced: false,
  validateName: nameIsDNSSubdomain,
  type: { group: '', kind: 'Namespace' },
}

const ok: ObjectMeta = { name: 'web', namespace: 'default' }
const ref = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u1' }

const render = (errs: FieldError[]) => errs.map(renderFieldError)

describe('validateObjectMeta', () => {
  type Case = [title: string, meta: ObjectMeta, opts: MetaValidationOptions, expected: string[]]
  it.each<Case>([
    ['a valid pod', ok, pod, []],
    // The digest's examples, verbatim.
    [
      'a pod name that is not a subdomain',
      { name: 'Bad_Name', namespace: 'default' },
      pod,
      [`metadata.name: Invalid value: "Bad_Name": ${SUBDOMAIN}`],
    ],
    [
      'a service name that is not a DNS-1035 label',
      { name: '1svc', namespace: 'default' },
      service,
      [
        `metadata.name: Invalid value: "1svc": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
      ],
    ],
    [
      'a bad label value',
      { ...ok, labels: { app: 'bad value!' } },
      pod,
      [
        `metadata.labels: Invalid value: "bad value!": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
      ],
    ],
    ['no name', { namespace: 'default' }, pod, ['metadata.name: Required value: name or generateName is required']],
    [
      'an empty name',
      { name: '', namespace: 'default' },
      pod,
      ['metadata.name: Required value: name or generateName is required'],
    ],
    [
      'generateName whose name was not generated',
      { generateName: 'web-', namespace: 'default' },
      pod,
      ['metadata.name: Required value: name or generateName is required'],
    ],
    [
      'generateName with its generated name',
      { generateName: 'web-', name: 'web-x7k2p', namespace: 'default' },
      pod,
      [],
    ],
    [
      'a bad generateName reports both fields',
      { generateName: 'Bad_', name: 'Bad_x7k2p', namespace: 'default' },
      pod,
      [
        `metadata.generateName: Invalid value: "Bad_": ${SUBDOMAIN}`,
        `metadata.name: Invalid value: "Bad_x7k2p": ${SUBDOMAIN}`,
      ],
    ],
    ['a namespaced kind without namespace', { name: 'web' }, pod, ['metadata.namespace: Required value']],
    [
      'an upper-case namespace',
      { name: 'web', namespace: 'Default' },
      pod,
      [`metadata.namespace: Invalid value: "Default": ${LABEL}`],
    ],
    [
      'a dotted namespace',
      { name: 'web', namespace: 'a.b' },
      pod,
      ['metadata.namespace: Invalid value: "a.b": must not contain dots'],
    ],
    [
      'a cluster-scoped kind with a namespace',
      { name: 'node-1', namespace: 'default' },
      clusterScoped,
      ['metadata.namespace: Forbidden: not allowed on this type'],
    ],
    ['a cluster-scoped kind without namespace', { name: 'node-1' }, clusterScoped, []],
    [
      'a negative generation',
      { ...ok, generation: -1 },
      pod,
      ['metadata.generation: Invalid value: -1: must be greater than or equal to 0'],
    ],
    [
      'a bad label key',
      { ...ok, labels: { 'bad key': 'v', 'Example.com/x': 'v', 'example.com/ok': '' } },
      pod,
      [
        `metadata.labels: Invalid value: "bad key": name part ${QUALIFIED}`,
        `metadata.labels: Invalid value: "Example.com/x": prefix part ${SUBDOMAIN}`,
      ],
    ],
    // Annotation keys are checked lower-cased: an upper-case prefix passes here but not in a label.
    ['an upper-case annotation prefix', { ...ok, annotations: { 'Example.COM/Key': 'v' } }, pod, []],
    [
      'an annotation key with two slashes',
      { ...ok, annotations: { 'a/b/c': 'v' } },
      pod,
      [
        `metadata.annotations: Invalid value: "a/b/c": a qualified name ${QUALIFIED} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
      ],
    ],
    ['annotations of exactly 256 KiB', { ...ok, annotations: { k: 'x'.repeat(262143) } }, pod, []],
    [
      'annotations over 256 KiB',
      { ...ok, annotations: { k: 'x'.repeat(262144) } },
      pod,
      ['metadata.annotations: Too long: may not be more than 262144 bytes'],
    ],
    [
      'annotations over 256 KiB in UTF-8 bytes',
      { ...ok, annotations: { k: 'é'.repeat(131072) } },
      pod,
      ['metadata.annotations: Too long: may not be more than 262144 bytes'],
    ],
    [
      'complete owner references',
      {
        ...ok,
        ownerReferences: [
          { ...ref, controller: true },
          { ...ref, uid: 'u2' },
        ],
      },
      pod,
      [],
    ],
    [
      'an owner reference with empty fields',
      { ...ok, ownerReferences: [{ apiVersion: '', kind: '', name: '', uid: '' }] },
      pod,
      [
        'metadata.ownerReferences.apiVersion: Invalid value: "": version must not be empty',
        'metadata.ownerReferences.kind: Invalid value: "": must not be empty',
        'metadata.ownerReferences.name: Invalid value: "": must not be empty',
        'metadata.ownerReferences.uid: Invalid value: "": must not be empty',
      ],
    ],
    [
      'owner reference apiVersions without a version',
      {
        ...ok,
        ownerReferences: [
          { ...ref, apiVersion: 'apps/' },
          { ...ref, apiVersion: 'a/b/c', uid: 'u2' },
        ],
      },
      pod,
      [
        'metadata.ownerReferences.apiVersion: Invalid value: "apps/": version must not be empty',
        'metadata.ownerReferences.apiVersion: Invalid value: "a/b/c": version must not be empty',
      ],
    ],
    [
      'two controllers',
      {
        ...ok,
        ownerReferences: [
          { ...ref, controller: true },
          { ...ref, name: 'rs2', uid: 'u2', controller: true, blockOwnerDeletion: false },
        ],
      },
      pod,
      [
        'metadata.ownerReferences: Invalid value: []v1.OwnerReference{' +
          'v1.OwnerReference{APIVersion:"apps/v1", Kind:"ReplicaSet", Name:"rs", UID:"u1", Controller:(*bool)(0xc000000000), BlockOwnerDeletion:(*bool)(nil)}, ' +
          'v1.OwnerReference{APIVersion:"apps/v1", Kind:"ReplicaSet", Name:"rs2", UID:"u2", Controller:(*bool)(0xc000000000), BlockOwnerDeletion:(*bool)(0xc000000000)}' +
          '}: Only one reference can have Controller set to true. Found "true" in references for ReplicaSet/rs and ReplicaSet/rs2',
      ],
    ],
    [
      'an Event as owner',
      { ...ok, ownerReferences: [{ apiVersion: 'v1', kind: 'Event', name: 'e', uid: 'u1' }] },
      pod,
      [
        'metadata.ownerReferences: Invalid value: v1.OwnerReference{APIVersion:"v1", Kind:"Event", Name:"e", UID:"u1", Controller:(*bool)(nil), BlockOwnerDeletion:(*bool)(nil)}: /v1, Kind=Event is disallowed from being an owner',
      ],
    ],
    [
      'standard and qualified finalizers',
      { ...ok, finalizers: ['kubernetes', 'orphan', 'example.com/cleanup'] },
      pod,
      [],
    ],
    // kube does not reject duplicates (kubernetes#80913 was closed to avoid breaking controllers).
    ['duplicate finalizers', { ...ok, finalizers: ['example.com/a', 'example.com/a'] }, pod, []],
    [
      'a non-standard unqualified finalizer',
      { ...ok, finalizers: ['example.com/a', 'cleanup'] },
      pod,
      [
        'metadata.finalizers[1]: Invalid value: "cleanup": name is neither a standard finalizer name nor is it fully qualified',
      ],
    ],
    [
      'a finalizer that is not a qualified name',
      { ...ok, finalizers: ['bad name'] },
      pod,
      [
        `metadata.finalizers: Invalid value: "bad name": name part ${QUALIFIED}`,
        'metadata.finalizers[0]: Invalid value: "bad name": name is neither a standard finalizer name nor is it fully qualified',
      ],
    ],
    [
      'orphan and foregroundDeletion together',
      { ...ok, finalizers: ['orphan', 'foregroundDeletion'] },
      pod,
      [
        'metadata.finalizers: Invalid value: []string{"orphan", "foregroundDeletion"}: finalizer orphan and foregroundDeletion cannot be both set',
      ],
    ],
    [
      'valid managedFields',
      {
        ...ok,
        managedFields: [
          { manager: 'kubectl-client-side-apply', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1' },
        ],
      },
      pod,
      [],
    ],
    [
      'bad managedFields',
      {
        ...ok,
        managedFields: [
          { manager: 'a\tb', operation: 'Patch', fieldsType: 'FieldsV2' },
          { manager: 'm'.repeat(129), subresource: 's'.repeat(257) },
        ],
      },
      pod,
      [
        'metadata.managedFields[0].operation: Invalid value: "Patch": must be `Apply` or `Update`',
        'metadata.managedFields[0].fieldsType: Invalid value: "FieldsV2": must be `FieldsV1`',
        'metadata.managedFields[0].manager: Invalid value: "a\\tb": invalid character U+0009 (at position 1)',
        'metadata.managedFields[1].operation: Invalid value: "": must be `Apply` or `Update`',
        'metadata.managedFields[1].manager: Too long: may not be more than 128 bytes',
        'metadata.managedFields[1].subresource: Too long: may not be more than 256 bytes',
      ],
    ],
    [
      'errors in kube order',
      { name: 'Bad_Name', generation: -2, labels: { 'a/b/c': '' }, finalizers: ['x'] },
      pod,
      [
        `metadata.name: Invalid value: "Bad_Name": ${SUBDOMAIN}`,
        'metadata.namespace: Required value',
        'metadata.generation: Invalid value: -2: must be greater than or equal to 0',
        `metadata.labels: Invalid value: "a/b/c": a qualified name ${QUALIFIED} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
        'metadata.finalizers[0]: Invalid value: "x": name is neither a standard finalizer name nor is it fully qualified',
      ],
    ],
  ])('%s', (_title, meta, opts, expected) => {
    expect(render(validateObjectMeta(meta, opts))).toEqual(expected)
  })

  it('reports under the given path', () => {
    const errs = validateObjectMeta({ labels: { a: '!' } }, clusterScoped, new FieldPath('spec.template.metadata'))
    expect(errs.map((e) => e.field)).toEqual(['spec.template.metadata.name', 'spec.template.metadata.labels'])
  })

  it('uses kube cause reasons', () => {
    const errs = validateObjectMeta(
      { name: 'Bad', generateName: 'x', namespace: 'n', annotations: { k: 'x'.repeat(262144) } },
      clusterScoped,
    )
    expect(errs.map((e) => e.type)).toEqual(['FieldValueInvalid', 'FieldValueForbidden', 'FieldValueTooLong'])
  })
})

describe('validateObjectMetaUpdate', () => {
  const old: ObjectMeta = {
    name: 'web',
    namespace: 'default',
    uid: 'u1',
    resourceVersion: '7',
    generation: 2,
    creationTimestamp: '2024-05-01T10:00:00Z',
    finalizers: ['example.com/a'],
  }
  type Case = [title: string, meta: ObjectMeta, old: ObjectMeta, expected: string[]]
  it.each<Case>([
    ['no change', { ...old }, old, []],
    ['labels added', { ...old, labels: { app: 'web' } }, old, []],
    ['name changed', { ...old, name: 'web2' }, old, ['metadata.name: Invalid value: "web2": field is immutable']],
    [
      'namespace changed',
      { ...old, namespace: 'other' },
      old,
      ['metadata.namespace: Invalid value: "other": field is immutable'],
    ],
    ['uid changed', { ...old, uid: 'u2' }, old, ['metadata.uid: Invalid value: "u2": field is immutable']],
    ['uid removed', { ...old, uid: undefined }, old, ['metadata.uid: Invalid value: "": field is immutable']],
    [
      'generation decremented',
      { ...old, generation: 1 },
      old,
      ['metadata.generation: Invalid value: 1: must not be decremented'],
    ],
    ['generation incremented', { ...old, generation: 3 }, old, []],
    [
      'creationTimestamp changed',
      { ...old, creationTimestamp: '2024-05-01T10:00:01Z' },
      old,
      ['metadata.creationTimestamp: Invalid value: 2024-05-01 10:00:01 +0000 UTC: field is immutable'],
    ],
    [
      'creationTimestamp changed by a fraction',
      { ...old, creationTimestamp: '2024-05-01T10:00:00.50Z' },
      old,
      ['metadata.creationTimestamp: Invalid value: 2024-05-01 10:00:00.5 +0000 UTC: field is immutable'],
    ],
    ['the same instant in another zone', { ...old, creationTimestamp: '2024-05-01T12:00:00+02:00' }, old, []],
    ['the same instant with zero fraction', { ...old, creationTimestamp: '2024-05-01T10:00:00.000Z' }, old, []],
    [
      'creationTimestamp removed',
      { ...old, creationTimestamp: undefined },
      old,
      ['metadata.creationTimestamp: Invalid value: 0001-01-01 00:00:00 +0000 UTC: field is immutable'],
    ],
    [
      'deletionTimestamp set by an update',
      { ...old, deletionTimestamp: '2024-05-01T10:05:00Z' },
      old,
      ['metadata.deletionTimestamp: Invalid value: 2024-05-01 10:05:00 +0000 UTC: field is immutable'],
    ],
    [
      'deletionTimestamp removed',
      { ...old },
      { ...old, deletionTimestamp: '2024-05-01T10:05:00Z' },
      ['metadata.deletionTimestamp: Invalid value: null: field is immutable'],
    ],
    [
      'deletionGracePeriodSeconds set',
      { ...old, deletionGracePeriodSeconds: 30 },
      old,
      ['metadata.deletionGracePeriodSeconds: Invalid value: 30: field is immutable'],
    ],
    [
      'deletionGracePeriodSeconds removed',
      { ...old },
      { ...old, deletionGracePeriodSeconds: 30 },
      ['metadata.deletionGracePeriodSeconds: Invalid value: null: field is immutable'],
    ],
    [
      'finalizers added while deleting',
      {
        ...old,
        deletionTimestamp: '2024-05-01T10:05:00Z',
        finalizers: ['example.com/a', 'example.com/z', 'example.com/b'],
      },
      { ...old, deletionTimestamp: '2024-05-01T10:05:00Z' },
      [
        'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/b", "example.com/z"}',
      ],
    ],
    [
      'finalizers removed while deleting',
      { ...old, deletionTimestamp: '2024-05-01T10:05:00Z', finalizers: [] },
      { ...old, deletionTimestamp: '2024-05-01T10:05:00Z' },
      [],
    ],
    ['finalizers added while live', { ...old, finalizers: ['example.com/a', 'example.com/b'] }, old, []],
    [
      'a non-standard finalizer added',
      { ...old, finalizers: ['cleanup'] },
      old,
      [
        'metadata.finalizers[0]: Invalid value: "cleanup": name is neither a standard finalizer name nor is it fully qualified',
      ],
    ],
    [
      'bad labels, annotations, owners and managedFields',
      {
        ...old,
        labels: { k: 'bad value!' },
        annotations: { 'a/b/c': '' },
        ownerReferences: [{ ...ref, uid: '' }],
        managedFields: [{ manager: 'm', operation: 'Apply' }, { manager: 'm' }],
      },
      old,
      [
        `metadata.labels: Invalid value: "bad value!": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
        `metadata.annotations: Invalid value: "a/b/c": a qualified name ${QUALIFIED} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
        'metadata.ownerReferences.uid: Invalid value: "": must not be empty',
        'metadata.managedFields[1].operation: Invalid value: "": must be `Apply` or `Update`',
      ],
    ],
  ])('%s', (_title, meta, oldMeta, expected) => {
    expect(render(validateObjectMetaUpdate(meta, oldMeta, POD))).toEqual(expected)
  })
})

describe('the standard-finalizer rule, per kind family', () => {
  const CRD: MetaKind = { group: 'apiextensions.k8s.io', kind: 'CustomResourceDefinition' }
  const CUSTOM: MetaKind = { group: 'example.com', kind: 'Widget', unstructured: {} }
  const PDB: MetaKind = { group: 'policy', kind: 'PodDisruptionBudget' }
  const UNPREFIXED = 'name is neither a standard finalizer name nor is it fully qualified'

  it.each<[string, MetaKind | undefined, boolean]>([
    ['core Pod', POD, true],
    ['apps Deployment', { group: 'apps', kind: 'Deployment' }, true],
    ['batch Job', { group: 'batch', kind: 'Job' }, true],
    ['rbac ClusterRole', { group: 'rbac.authorization.k8s.io', kind: 'ClusterRole' }, true],
    ['coordination Lease', { group: 'coordination.k8s.io', kind: 'Lease' }, true],
    ['CustomResourceDefinition (apiextensions-apiserver, generic rule)', CRD, false],
    ['a custom resource (generic rule)', CUSTOM, false],
    ['a custom resource in a built-in-looking group', { group: 'apps', kind: 'Deployment', unstructured: {} }, false],
    ['PodDisruptionBudget (ValidatePodDisruptionBudget checks no metadata)', PDB, false],
    ['an embedded object (no kind: generic rule)', undefined, false],
  ])('%s: core rule %s', (_title, type, core) => {
    expect(usesCoreFinalizerRule(type)).toBe(core)
  })

  it('lets a CRD being deleted carry customresourcecleanup.apiextensions.k8s.io on create and update', () => {
    const crd: ObjectMeta = { name: 'widgets.example.com', finalizers: ['customresourcecleanup.apiextensions.k8s.io'] }
    const opts: MetaValidationOptions = { namespaced: false, validateName: nameIsDNSSubdomain, type: CRD }
    expect(render(validateObjectMeta(crd, opts))).toEqual([])
    const deleting = { ...crd, uid: 'u', deletionTimestamp: '2024-05-01T10:00:00Z' }
    expect(render(validateObjectMetaUpdate(deleting, deleting, CRD))).toEqual([])
  })

  it('still refuses it on a core kind, at the entry', () => {
    const meta: ObjectMeta = { ...ok, finalizers: ['customresourcecleanup.apiextensions.k8s.io'] }
    expect(render(validateObjectMeta(meta, pod))).toEqual([
      `metadata.finalizers[0]: Invalid value: "customresourcecleanup.apiextensions.k8s.io": ${UNPREFIXED}`,
    ])
    const old = { ...ok, uid: 'u' }
    expect(render(validateObjectMetaUpdate({ ...meta, uid: 'u' }, old, POD))).toEqual([
      `metadata.finalizers[0]: Invalid value: "customresourcecleanup.apiextensions.k8s.io": ${UNPREFIXED}`,
    ])
  })

  it('keeps the generic qualified-name check for custom resources', () => {
    const opts: MetaValidationOptions = { namespaced: true, validateName: nameIsDNSSubdomain, type: CUSTOM }
    expect(render(validateObjectMeta({ ...ok, finalizers: ['cleanup', 'bad name'] }, opts))).toEqual([
      `metadata.finalizers: Invalid value: "bad name": name part ${QUALIFIED}`,
    ])
  })
})

describe('validateLabels and validateAnnotations', () => {
  it('accept undefined maps', () => {
    expect(validateLabels(undefined, new FieldPath('metadata.labels'))).toEqual([])
    expect(validateAnnotations(undefined, new FieldPath('metadata.annotations'))).toEqual([])
  })

  it('report both a key and a value of one label', () => {
    expect(render(validateLabels({ '-k': '-v' }, new FieldPath('spec.selector')))).toEqual([
      `spec.selector: Invalid value: "-k": name part ${QUALIFIED}`,
      `spec.selector: Invalid value: "-v": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
    ])
  })
})
