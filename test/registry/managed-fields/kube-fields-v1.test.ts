// managedFields exactly as kube-apiserver 1.33 writes them, compared as the raw response text (so key order counts):
// an Update entry is structured-merge-diff's Compare(old, new) (a create's old object is the kind's empty Go object,
// so a node the writer brings into being carries "." and one Go always has, like a pod's containers, does not), an
// Apply entry is ToFieldSet of the applied configuration (no "." on a struct field's map or list), atomic structs and
// maps (+structType=atomic, +mapType=atomic) are leaves, and FieldsV1 is written as fieldpath/serialize.go writes it:
// "." first, then the children in PathElement order.
import { describe, expect, it } from 'vitest'
import { makeNamespace, req, sleep, waitFor } from '../../helpers'

/** The raw fieldsV1 JSON text of `manager`'s entry in a response's text (the first object holding that manager). */
function fieldsV1Text(text: string, manager: string, operation = 'Update'): string {
  const at = text.indexOf(`{"manager":${JSON.stringify(manager)},"operation":"${operation}"`)
  expect(at, `no ${operation} entry of ${manager} in ${text}`).toBeGreaterThanOrEqual(0)
  const start = text.indexOf('"fieldsV1":', at) + '"fieldsV1":'.length
  let depth = 0
  let inString = false
  for (let i = start; i < text.length; i++) {
    const ch = text[i]
    if (inString) {
      if (ch === '\\') i++
      else if (ch === '"') inString = false
    } else if (ch === '"') inString = true
    else if (ch === '{') depth++
    else if (ch === '}' && --depth === 0) return text.slice(start, i + 1)
  }
  throw new Error('unterminated fieldsV1')
}

/** The order of the managedFields entries in a response's text: manager/operation[/subresource]. */
const entryOrder = (json: any) =>
  json.metadata.managedFields.map(
    (e: any) => `${e.manager}/${e.operation}${e.subresource ? `/${e.subresource}` : ''}`,
  ) as string[]

const POD = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', labels: { app: 'web' } },
  spec: {
    nodeSelector: { disk: 'ssd' },
    containers: [
      {
        name: 'c',
        image: 'nginx:1.25',
        env: [{ name: 'A', valueFrom: { configMapKeyRef: { name: 'cm', key: 'k' } } }],
      },
    ],
  },
}

/** What kube-controller-manager and a POST of POD own of the pod spec (defaults included, resources as {}). */
const specOf = (containerExtra: string, specExtra: string) =>
  `"f:spec":{"f:containers":{"k:{\\"name\\":\\"c\\"}":{".":{},${containerExtra}"f:image":{},"f:imagePullPolicy":{},` +
  `"f:name":{},"f:resources":{},"f:terminationMessagePath":{},"f:terminationMessagePolicy":{}}},"f:dnsPolicy":{},` +
  `"f:enableServiceLinks":{},${specExtra}"f:restartPolicy":{},"f:schedulerName":{},"f:securityContext":{},` +
  `"f:terminationGracePeriodSeconds":{}}`

describe('managedFields as kube writes them (raw text)', () => {
  it('a pod a ReplicaSet created: kube-controller-manager owns labels and ownerReferences with ".", the atomic reference whole, containers without "."', async () => {
    const ns = await makeNamespace('mf')
    const rs = await req('POST', `/apis/apps/v1/namespaces/${ns}/replicasets?fieldManager=rs-maker`, {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'rs' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web', tier: 'fe' } },
          spec: { containers: [{ name: 'c', image: 'nginx:1.25' }] },
        },
      },
    })
    expect(rs.status, rs.text).toBe(201)
    const uid = rs.json.metadata.uid
    const name = await waitFor('the pod', async () => {
      const l = await req('GET', `/api/v1/namespaces/${ns}/pods`)
      return l.json.items[0]?.metadata.name as string | undefined
    })
    const got = await req('GET', `/api/v1/namespaces/${ns}/pods/${name}`)
    expect(fieldsV1Text(got.text, 'kube-controller-manager')).toBe(
      `{"f:metadata":{"f:generateName":{},"f:labels":{".":{},"f:app":{},"f:tier":{}},` +
        `"f:ownerReferences":{".":{},"k:{\\"uid\\":\\"${uid}\\"}":{}}},${specOf('', '')}}`,
    )
    // The ReplicaSet's own entry: selector (+structType=atomic) is one leaf; the template's labels map is new.
    expect(
      fieldsV1Text(rs.text, 'rs-maker').startsWith(
        '{"f:spec":{"f:replicas":{},"f:selector":{},"f:template":{"f:metadata":{"f:labels":{".":{},',
      ),
    ).toBe(true)
  })

  it('a POST create: Update entry with "." on new maps and lists, atomic nodeSelector and configMapKeyRef as leaves', async () => {
    const ns = await makeNamespace('mf')
    const c = await req('POST', `/api/v1/namespaces/${ns}/pods?fieldManager=creator`, POD)
    expect(c.status, c.text).toBe(201)
    const want =
      `{"f:metadata":{"f:labels":{".":{},"f:app":{}}},` +
      `${specOf(
        `"f:env":{".":{},"k:{\\"name\\":\\"A\\"}":{".":{},"f:name":{},"f:valueFrom":{".":{},"f:configMapKeyRef":{}}}},`,
        '"f:nodeSelector":{},',
      )}}`
    expect(fieldsV1Text(c.text, 'creator')).toBe(want)
    // Stored as answered.
    const g = await req('GET', `/api/v1/namespaces/${ns}/pods/p`)
    expect(fieldsV1Text(g.text, 'creator')).toBe(want)
  })

  it('the same pod server-side applied: Apply entry is the applied fields only, no "." on struct fields', async () => {
    const ns = await makeNamespace('mf')
    const r = await req('PATCH', `/api/v1/namespaces/${ns}/pods/p?fieldManager=applier`, JSON.stringify(POD), {
      'content-type': 'application/apply-patch+yaml',
    })
    expect(r.status, r.text).toBe(201)
    const want =
      '{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"c\\"}":{".":{},' +
      '"f:env":{"k:{\\"name\\":\\"A\\"}":{".":{},"f:name":{},"f:valueFrom":{"f:configMapKeyRef":{}}}},' +
      '"f:image":{},"f:name":{}}},"f:nodeSelector":{}}}'
    expect(fieldsV1Text(r.text, 'applier', 'Apply')).toBe(want)
    // Applied again over a POST's object: the Apply entry is listed before the Update one (sortEncodedManagedFields).
    const ns2 = await makeNamespace('mf')
    expect((await req('POST', `/api/v1/namespaces/${ns2}/pods?fieldManager=creator`, POD)).status).toBe(201)
    const u = await req('PATCH', `/api/v1/namespaces/${ns2}/pods/p?fieldManager=applier`, JSON.stringify(POD), {
      'content-type': 'application/apply-patch+yaml',
    })
    expect(u.status, u.text).toBe(200)
    expect(fieldsV1Text(u.text, 'applier', 'Apply')).toBe(want)
    expect(entryOrder(u.json).slice(0, 2)).toEqual(['applier/Apply', 'creator/Update'])
  })

  it('an update adding a label owns that label alone (labels was there before: no ".")', async () => {
    const ns = await makeNamespace('mf')
    expect((await req('POST', `/api/v1/namespaces/${ns}/pods?fieldManager=creator`, POD)).status).toBe(201)
    const p = await req(
      'PATCH',
      `/api/v1/namespaces/${ns}/pods/p?fieldManager=labeler`,
      { metadata: { labels: { tier: 'fe' } } },
      { 'content-type': 'application/merge-patch+json' },
    )
    expect(p.status, p.text).toBe(200)
    expect(fieldsV1Text(p.text, 'labeler')).toBe('{"f:metadata":{"f:labels":{"f:tier":{}}}}')
    // A label on an object that had none brings the map into being: "." then.
    const cm = await req('POST', `/api/v1/namespaces/${ns}/configmaps?fieldManager=creator`, {
      metadata: { name: 'cm' },
      data: { k: 'v' },
    })
    expect(cm.status, cm.text).toBe(201)
    expect(fieldsV1Text(cm.text, 'creator')).toBe('{"f:data":{".":{},"f:k":{}}}')
    const l = await req(
      'PATCH',
      `/api/v1/namespaces/${ns}/configmaps/cm?fieldManager=labeler`,
      { metadata: { labels: { tier: 'fe' } } },
      { 'content-type': 'application/merge-patch+json' },
    )
    expect(fieldsV1Text(l.text, 'labeler')).toBe('{"f:metadata":{"f:labels":{".":{},"f:tier":{}}}}')
  })

  it('a status update records its entry with subresource "status": a new keyed list has "."', async () => {
    const ns = await makeNamespace('mf')
    const s = await req('POST', `/api/v1/namespaces/${ns}/services`, {
      metadata: { name: 's' },
      spec: { ports: [{ port: 80 }] },
    })
    expect(s.status, s.text).toBe(201)
    const put = await req('PUT', `/api/v1/namespaces/${ns}/services/s/status?fieldManager=st`, {
      ...s.json,
      status: {
        conditions: [
          { type: 'Ready', status: 'True', lastTransitionTime: '2024-01-01T00:00:00Z', reason: 'R', message: 'm' },
        ],
      },
    })
    expect(put.status, put.text).toBe(200)
    expect(fieldsV1Text(put.text, 'st')).toBe(
      '{"f:status":{"f:conditions":{".":{},"k:{\\"type\\":\\"Ready\\"}":{".":{},"f:lastTransitionTime":{},' +
        '"f:message":{},"f:reason":{},"f:status":{},"f:type":{}}}}}',
    )
    expect(put.json.metadata.managedFields.find((e: any) => e.manager === 'st').subresource).toBe('status')
  })

  it('a custom resource: open (x-kubernetes-preserve-unknown-fields) content is a map at every level; a create adds spec too; status is owned without a status subresource', async () => {
    const group = `mf${Date.now().toString(36)}.example.com`
    const crds = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions'
    const crd = await req('POST', crds, {
      metadata: { name: `widgets.${group}` },
      spec: {
        group,
        scope: 'Namespaced',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: {
                  spec: {
                    type: 'object',
                    properties: {
                      image: { type: 'string' },
                      config: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                    },
                  },
                  status: { type: 'object', properties: { ok: { type: 'boolean' } } },
                },
              },
            },
          },
        ],
      },
    })
    expect(crd.status, crd.text).toBe(201)
    for (let i = 0; i < 100; i++) {
      const c = (await req('GET', `${crds}/widgets.${group}`)).json
      if (c?.status?.conditions?.some((x: any) => x.type === 'Established' && x.status === 'True')) break
      await sleep(50)
    }
    const ns = await makeNamespace('mf')
    const body = {
      apiVersion: `${group}/v1`,
      kind: 'Widget',
      metadata: { name: 'w' },
      spec: { image: 'x', config: { a: { b: { c: 1 } } } },
    }
    const path = `/apis/${group}/v1/namespaces/${ns}/widgets`
    const applied = await req('PATCH', `${path}/w?fieldManager=applier`, JSON.stringify(body), {
      'content-type': 'application/apply-patch+yaml',
    })
    expect(applied.status, applied.text).toBe(201)
    expect(fieldsV1Text(applied.text, 'applier', 'Apply')).toBe(
      '{"f:spec":{"f:config":{"f:a":{".":{},"f:b":{".":{},"f:c":{}}}},"f:image":{}}}',
    )
    // Without a status subresource nothing resets status: the main resource's writer owns it.
    const posted = await req('POST', `${path}?fieldManager=creator`, {
      ...body,
      metadata: { name: 'w2' },
      status: { ok: true },
    })
    expect(posted.status, posted.text).toBe(201)
    expect(posted.json.status).toEqual({ ok: true })
    expect(fieldsV1Text(posted.text, 'creator')).toBe(
      '{"f:spec":{".":{},"f:config":{".":{},"f:a":{".":{},"f:b":{".":{},"f:c":{}}}},"f:image":{}},' +
        '"f:status":{".":{},"f:ok":{}}}',
    )
  })

  it('past 10 Update managers the two oldest are merged into ancient-changes (capManagersManager)', async () => {
    const ns = await makeNamespace('mf')
    const path = `/api/v1/namespaces/${ns}/configmaps`
    const c = await req('POST', `${path}?fieldManager=a-creator`, { metadata: { name: 'cm' }, data: { k: 'v' } })
    expect(c.status, c.text).toBe(201)
    let last: Awaited<ReturnType<typeof req>> = c
    for (let i = 1; i <= 10; i++) {
      const m = `l${String(i).padStart(2, '0')}`
      last = await req(
        'PATCH',
        `${path}/cm?fieldManager=${m}`,
        { metadata: { labels: { [m]: 'x' } } },
        { 'content-type': 'application/merge-patch+json' },
      )
      expect(last.status, last.text).toBe(200)
    }
    const managers = (last.json.metadata.managedFields as any[]).map((e) => e.manager).sort()
    expect(managers).toEqual(['ancient-changes', 'l02', 'l03', 'l04', 'l05', 'l06', 'l07', 'l08', 'l09', 'l10'])
    expect(fieldsV1Text(last.text, 'ancient-changes')).toBe(
      '{"f:data":{".":{},"f:k":{}},"f:metadata":{"f:labels":{".":{},"f:l01":{}}}}',
    )
  })

  it('keyed items are ordered as PathElements: numeric keys by value (80 before 443), not as text', async () => {
    const ns = await makeNamespace('mf')
    const s = await req('POST', `/api/v1/namespaces/${ns}/services?fieldManager=creator`, {
      metadata: { name: 's' },
      spec: {
        ports: [
          { name: 'https', port: 443 },
          { name: 'http', port: 80 },
        ],
      },
    })
    expect(s.status, s.text).toBe(201)
    const text = fieldsV1Text(s.text, 'creator')
    expect(text.indexOf('k:{\\"port\\":80,\\"protocol\\":\\"TCP\\"}')).toBeGreaterThan(0)
    expect(text.indexOf('k:{\\"port\\":80,')).toBeLessThan(text.indexOf('k:{\\"port\\":443,'))
  })
})
