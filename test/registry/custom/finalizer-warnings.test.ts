// Custom resources accept finalizers that are not domain-qualified (apimachinery's generic rule) and warn of the ones
// a write adds, with apiextensions-apiserver's words; built-in kinds and the status subresource warn of nothing.
import { describe, expect, it } from 'vitest'
import { customFinalizerWarnings } from '../../../src/registry/custom/finalizer-warnings'
import { req } from '../../helpers'
import { crd, freshGroup, install } from '../../support/crds'

const CUSTOM = { unstructured: {} }
const obj = (finalizers?: string[]) => ({ metadata: { name: 'w', finalizers } })
const PREFER = 'prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers'
const PREFER_PATH =
  'prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers'

describe('customFinalizerWarnings', () => {
  it('warns of each unqualified finalizer added, sorted, with or without a dot', () => {
    expect(
      customFinalizerWarnings(
        CUSTOM,
        undefined,
        obj(['zeta', 'example.com/ok', 'cleanup.example.com', 'orphan']),
        null,
      ),
    ).toEqual([`metadata.finalizers: "cleanup.example.com": ${PREFER_PATH}`, `metadata.finalizers: "zeta": ${PREFER}`])
  })

  it('warns only of finalizers the update adds', () => {
    expect(customFinalizerWarnings(CUSTOM, undefined, obj(['a', 'b']), obj(['a']))).toEqual([
      `metadata.finalizers: "b": ${PREFER}`,
    ])
    expect(customFinalizerWarnings(CUSTOM, undefined, obj(['a']), obj(['a']))).toEqual([])
  })

  it('passes the qualified-name messages on as warnings too', () => {
    expect(customFinalizerWarnings(CUSTOM, undefined, obj(['bad name']), null)).toEqual([
      `metadata.finalizers: "bad name": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
      `metadata.finalizers: "bad name": ${PREFER}`,
    ])
  })

  it('says nothing for built-in kinds or subresources', () => {
    expect(customFinalizerWarnings({}, undefined, obj(['cleanup']), null)).toEqual([])
    expect(customFinalizerWarnings(CUSTOM, 'status', obj(['cleanup']), null)).toEqual([])
  })
})

describe('finalizer warnings through the API', () => {
  it('a custom resource with an unqualified finalizer is created, with a Warning; adding one more warns of it', async () => {
    const group = freshGroup('fw')
    await install(crd(group, { versions: undefined }))
    const base = `/apis/${group}/v1/namespaces/default/widgets`
    const created = await req('POST', base, {
      apiVersion: `${group}/v1`,
      kind: 'Widget',
      metadata: { name: 'w', finalizers: ['cleanup'] },
    })
    expect(created.status, created.text).toBe(201)
    expect(created.headers.get('warning')).toBe(`299 - "metadata.finalizers: \\"cleanup\\": ${PREFER}"`)

    const patched = await req(
      'PATCH',
      `${base}/w`,
      { metadata: { finalizers: ['cleanup', 'held.example.com'] } },
      { 'content-type': 'application/merge-patch+json' },
    )
    expect(patched.status, patched.text).toBe(200)
    expect(patched.headers.get('warning')).toBe(`299 - "metadata.finalizers: \\"held.example.com\\": ${PREFER_PATH}"`)

    const put = await req('PUT', `${base}/w`, {
      ...patched.json,
      metadata: { ...patched.json.metadata, finalizers: [] },
    })
    expect(put.status, put.text).toBe(200)
    expect(put.headers.get('warning')).toBeNull()
  })

  it('a built-in kind still refuses the same finalizer', async () => {
    const r = await req('POST', '/api/v1/namespaces/default/configmaps', {
      metadata: { name: `fw-${Date.now().toString(36)}`, finalizers: ['cleanup'] },
    })
    expect(r.status).toBe(422)
    expect(r.json.message).toContain(
      'metadata.finalizers[0]: Invalid value: "cleanup": name is neither a standard finalizer name nor is it fully qualified',
    )
  })
})
