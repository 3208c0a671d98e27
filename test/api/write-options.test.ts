// The options of writes as kube reads and validates them (src/api/write-options.ts over
// src/registry/validation/meta-options.ts): 422 <kind>Options.meta.k8s.io "" for values kube does not know, 400 for
// parameters its codec cannot convert, a DeleteOptions body read instead of the query, and a refused delete leaving
// the object where it was.
import { describe, expect, it } from 'vitest'
import { makeNamespace, req, sleep } from '../helpers'

const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: 'b' } })
const MERGE = { 'content-type': 'application/merge-patch+json' }

async function configMap(): Promise<string> {
  const ns = await makeNamespace('opts')
  const created = await req('POST', `/api/v1/namespaces/${ns}/configmaps`, cm('a'))
  expect(created.status, created.text).toBe(201)
  return `/api/v1/namespaces/${ns}/configmaps/a`
}

describe('create, update and patch options (ValidateCreateOptions, ValidateUpdateOptions, ValidatePatchOptions)', () => {
  it('dryRun=Bogus on create: 422 CreateOptions, the whole list quoted as Go prints a []string', async () => {
    const ns = await makeNamespace('opts')
    const r = await req('POST', `/api/v1/namespaces/${ns}/configmaps?dryRun=All&dryRun=Bogus`, cm('a'))
    expect(r.status, r.text).toBe(422)
    expect(r.json).toMatchObject({
      reason: 'Invalid',
      message:
        'CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"All", "Bogus"}: supported values: "All"',
      details: {
        group: 'meta.k8s.io',
        kind: 'CreateOptions',
        causes: [
          {
            reason: 'FieldValueNotSupported',
            field: 'dryRun',
            message: 'Unsupported value: []string{"All", "Bogus"}: supported values: "All"',
          },
        ],
      },
    })
    expect((await req('GET', `/api/v1/namespaces/${ns}/configmaps/a`)).status).toBe(404)
  })

  it('fieldValidation=Bogus on create: 422 naming every value kube allows, the empty one first', async () => {
    const ns = await makeNamespace('opts')
    const r = await req('POST', `/api/v1/namespaces/${ns}/configmaps?fieldValidation=Bogus`, cm('a'))
    expect(r.status, r.text).toBe(422)
    expect(r.json.message).toBe(
      'CreateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "Bogus": supported values: "", "Ignore", "Strict", "Warn"',
    )
  })

  it('every bad option at once, in kube order (fieldManager, dryRun, fieldValidation)', async () => {
    const ns = await makeNamespace('opts')
    const r = await req(
      'POST',
      `/api/v1/namespaces/${ns}/configmaps?fieldValidation=x&dryRun=y&fieldManager=${'m'.repeat(129)}`,
      cm('a'),
    )
    expect(r.status, r.text).toBe(422)
    expect(r.json.details.causes.map((c: { field: string }) => c.field)).toEqual([
      'fieldManager',
      'dryRun',
      'fieldValidation',
    ])
  })

  it('dryRun=Bogus on update: 422 UpdateOptions, and the object is unchanged', async () => {
    const path = await configMap()
    const current = (await req('GET', path)).json
    const r = await req('PUT', `${path}?dryRun=Bogus`, { ...current, data: { a: 'changed' } })
    expect(r.status, r.text).toBe(422)
    expect(r.json).toMatchObject({ reason: 'Invalid', details: { group: 'meta.k8s.io', kind: 'UpdateOptions' } })
    expect((await req('GET', path)).json.data).toEqual({ a: 'b' })
  })

  it('dryRun=Bogus on a patch and on a /status patch: 422 PatchOptions', async () => {
    const path = await configMap()
    const r = await req('PATCH', `${path}?dryRun=Bogus`, '{}', MERGE)
    expect(r.status, r.text).toBe(422)
    expect(r.json).toMatchObject({ reason: 'Invalid', details: { kind: 'PatchOptions' } })
    const ns = await makeNamespace('opts')
    await req('POST', `/api/v1/namespaces/${ns}/services`, {
      metadata: { name: 's' },
      spec: { ports: [{ port: 80 }] },
    })
    const status = await req('PATCH', `/api/v1/namespaces/${ns}/services/s/status?dryRun=Bogus`, '{}', MERGE)
    expect(status.status, status.text).toBe(422)
    expect(status.json.details.kind).toBe('PatchOptions')
  })

  it('force on a non-apply patch and a bad dryRun: one 422 with both', async () => {
    const path = await configMap()
    const r = await req('PATCH', `${path}?force=true&dryRun=No`, '{}', MERGE)
    expect(r.status, r.text).toBe(422)
    expect(r.json.message).toBe(
      'PatchOptions.meta.k8s.io "" is invalid: [force: Forbidden: may not be specified for non-apply patch, dryRun: Unsupported value: []string{"No"}: supported values: "All"]',
    )
  })

  it('dryRun=All still dry-runs a create', async () => {
    const ns = await makeNamespace('opts')
    const r = await req('POST', `/api/v1/namespaces/${ns}/configmaps?dryRun=All`, cm('a'))
    expect(r.status, r.text).toBe(201)
    expect((await req('GET', `/api/v1/namespaces/${ns}/configmaps/a`)).status).toBe(404)
  })
})

describe('delete options (ValidateDeleteOptions, the parameter codec, rest.BeforeDelete)', () => {
  it('dryRun=Bogus on delete: 422 DeleteOptions, and the object stays', async () => {
    const path = await configMap()
    const r = await req('DELETE', `${path}?dryRun=Bogus`)
    expect(r.status, r.text).toBe(422)
    expect(r.json).toMatchObject({ reason: 'Invalid', details: { group: 'meta.k8s.io', kind: 'DeleteOptions' } })
    expect((await req('GET', path)).status).toBe(200)
  })

  it('a DeleteOptions body with an unknown propagationPolicy: 422, and the object stays', async () => {
    const path = await configMap()
    const r = await req('DELETE', path, { propagationPolicy: 'Sometimes' })
    expect(r.status, r.text).toBe(422)
    expect(r.json.message).toBe(
      'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Sometimes": supported values: "Foreground", "Background", "Orphan", "nil"',
    )
    expect((await req('GET', path)).status).toBe(200)
  })

  it('an empty propagationPolicy parameter is a policy kube does not know', async () => {
    const path = await configMap()
    const r = await req('DELETE', `${path}?propagationPolicy=`)
    expect(r.status, r.text).toBe(422)
    expect(r.json.details.causes[0]).toMatchObject({ field: 'propagationPolicy', reason: 'FieldValueNotSupported' })
    expect((await req('GET', path)).status).toBe(200)
  })

  it('orphanDependents beside a propagationPolicy: 422, in the query or the body, and the object stays', async () => {
    const path = await configMap()
    const want =
      'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Foreground": orphanDependents and deletionPropagation cannot be both set'
    const q = await req('DELETE', `${path}?orphanDependents=true&propagationPolicy=Foreground`)
    expect(q.status, q.text).toBe(422)
    expect(q.json.message).toBe(want)
    const b = await req('DELETE', path, { orphanDependents: false, propagationPolicy: 'Foreground' })
    expect(b.status, b.text).toBe(422)
    expect(b.json.message).toBe(want)
    expect((await req('GET', path)).status).toBe(200)
  })

  it('gracePeriodSeconds past int64 or not an integer: 400 with strconv.ParseInt text, and the object stays', async () => {
    const path = await configMap()
    const huge = await req('DELETE', `${path}?gracePeriodSeconds=99999999999999999999999`)
    expect(huge.status, huge.text).toBe(400)
    expect(huge.json.message).toBe('strconv.ParseInt: parsing "99999999999999999999999": value out of range')
    const fraction = await req('DELETE', `${path}?gracePeriodSeconds=1.5`)
    expect(fraction.status, fraction.text).toBe(400)
    expect(fraction.json.message).toBe('strconv.ParseInt: parsing "1.5": invalid syntax')
    expect((await req('GET', path)).status).toBe(200)
  })

  it('a negative gracePeriodSeconds is taken as 1 s', async () => {
    const path = await configMap()
    const r = await req('DELETE', `${path}?gracePeriodSeconds=-5`)
    expect(r.status, r.text).toBe(200)
    expect((await req('GET', path)).status).toBe(404)
  })

  it('with a body, the query is not read (kube decodes one or the other)', async () => {
    const path = await configMap()
    const r = await req('DELETE', `${path}?dryRun=All`, { apiVersion: 'v1', kind: 'DeleteOptions' })
    expect(r.status, r.text).toBe(200)
    expect((await req('GET', path)).status).toBe(404)
  })

  it('uid and resourceVersion parameters are preconditions', async () => {
    const path = await configMap()
    const r = await req('DELETE', `${path}?uid=00000000-0000-0000-0000-000000000000`)
    expect(r.status, r.text).toBe(409)
    expect((await req('GET', path)).status).toBe(200)
  })

  it('a scheduled Pod deleted with gracePeriodSeconds=9223372036854775807: its deletionTimestamp wraps as Go time does', async () => {
    const ns = await makeNamespace('opts')
    const base = `/api/v1/namespaces/${ns}/pods`
    const created = await req('POST', base, {
      metadata: { name: 'p' },
      spec: { containers: [{ name: 'c', image: 'nginx' }] },
    })
    expect(created.status, created.text).toBe(201)
    // A pod not yet on a node goes at once whatever the grace period: wait for the scheduler.
    let nodeName: string | undefined
    for (let i = 0; i < 50 && !nodeName; i++) {
      nodeName = (await req('GET', `${base}/p`)).json.spec?.nodeName
      if (!nodeName) await sleep(50)
    }
    expect(nodeName).toBeTruthy()
    const before = Date.now()
    const r = await req('DELETE', `${base}/p?gracePeriodSeconds=9223372036854775807`)
    expect(r.status, r.text).toBe(200)
    // time.Second * time.Duration(2^63-1) wraps to -1 s: the deletion is already due.
    const at = Date.parse(r.json.metadata.deletionTimestamp)
    expect(at).toBeLessThanOrEqual(before)
    expect(at).toBeGreaterThan(before - 5000)
  })
})
