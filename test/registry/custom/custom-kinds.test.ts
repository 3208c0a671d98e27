// Resolving an ownerReference's kind in an isolate that loads custom kinds lazily: a kind of a group that may be a
// CRD's and is not in the table is looked up at once; built-in kinds and groups without a dot ask nothing.
import { describe, expect, it } from 'vitest'
import { customKinds, parseApiVersion } from '../../../src/registry/custom/custom-kinds'
import { kinds } from '../../../src/registry/resources'
import type { KubeObject } from '../../../src/schema/meta'

const GROUP = 'owners.example.com'
const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `gadgets.${GROUP}`, uid: 'crd-gadgets', generation: 1 },
  spec: {
    group: GROUP,
    scope: 'Namespaced',
    names: { plural: 'gadgets', kind: 'Deployment' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
    ],
  },
  status: {
    acceptedNames: { plural: 'gadgets', kind: 'Deployment' },
    conditions: [{ type: 'Established', status: 'True' }],
  },
} as unknown as KubeObject

describe('customKinds.knowKindOf', () => {
  it('splits an apiVersion as schema.ParseGroupVersion does', () => {
    expect(parseApiVersion('v1')).toEqual({ group: '', version: 'v1' })
    expect(parseApiVersion('apps/v1')).toEqual({ group: 'apps', version: 'v1' })
  })

  it('asks the CRDs only for a kind of a dotted group the table does not hold, and then holds it', async () => {
    let asked = 0
    const source = {
      snapshot: () => {
        asked++
        return { version: 7, objects: { customresourcedefinitions: [crd] } }
      },
    }
    expect(customKinds.knowKindOf('v1', 'ConfigMap', source)).toBeUndefined()
    expect(customKinds.knowKindOf('apps/v1', 'Deployment', source)).toBeUndefined()
    expect(asked).toBe(0)
    expect(kinds.byGroupVersionKind(GROUP, 'v1', 'Deployment')).toBeUndefined()
    await customKinds.knowKindOf(`${GROUP}/v1`, 'Deployment', source)
    expect(asked).toBe(1)
    const def = kinds.byGroupVersionKind(GROUP, 'v1', 'Deployment')
    expect(def?.plural).toBe('gadgets')
    // apps' Deployment is still apps' own row.
    expect(kinds.byGroupVersionKind('apps', 'v1', 'Deployment')?.group).toBe('apps')
    expect(customKinds.knowKindOf(`${GROUP}/v1`, 'Deployment', source)).toBeUndefined()
    expect(asked).toBe(1)
  })
})
