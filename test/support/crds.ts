// Test helpers for CustomResourceDefinitions: a CronTab-like CRD in a group of its own (so tests do not share
// kinds), and waiting for the CRD controller to establish it.
import { expect } from 'vitest'
import { req, sleep } from '../helpers'

export const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions'

let n = 0
/** A group no other test uses. */
export const freshGroup = (prefix = 'g') => `${prefix}${Date.now().toString(36)}${n++}.example.com`

/** A CRD whose only (or given) versions carry `schema` under spec. */
export function crd(
  group: string,
  opts: {
    plural?: string
    kind?: string
    scope?: 'Namespaced' | 'Cluster'
    categories?: string[]
    shortNames?: string[]
    spec?: Record<string, unknown>
    versions?: Record<string, unknown>[]
  } = {},
) {
  const plural = opts.plural ?? 'widgets'
  const kind = opts.kind ?? 'Widget'
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: opts.scope ?? 'Namespaced',
      names: {
        plural,
        kind,
        ...(opts.categories ? { categories: opts.categories } : {}),
        ...(opts.shortNames ? { shortNames: opts.shortNames } : {}),
      },
      versions: opts.versions ?? [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: { spec: opts.spec ?? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
            },
          },
        },
      ],
    },
  }
}

/** Creates a CRD and waits until it is Established; answers the CRD. */
export async function install(body: { metadata: { name: string } }) {
  const r = await req('POST', CRDS, body)
  expect(r.status, r.text).toBe(201)
  for (let i = 0; i < 100; i++) {
    const got = (await req('GET', `${CRDS}/${body.metadata.name}`)).json
    if (got?.status?.conditions?.some((c: any) => c.type === 'Established' && c.status === 'True')) return got
    await sleep(50)
  }
  throw new Error(`${body.metadata.name} never became Established`)
}
