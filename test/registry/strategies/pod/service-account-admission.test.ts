// kube 1.33's ServiceAccount admission refusing pods, through the Worker: a create naming a ServiceAccount that does
// not exist (its exact Forbidden, the generateName prefix as the name, dry runs, server-side apply, before validation),
// never the `default` one of a namespace made or emptied a moment ago; a mirror pod naming a ServiceAccount, a secret or
// a token projection; pods/ephemeralcontainers on a pod whose ServiceAccount is gone or that names none; plain updates
// are not judged; a ServiceAccount enforcing mountable secrets.
import { describe, expect, it } from 'vitest'
import type { PodObject } from '../../../../src/registry/strategies/pod/pod-types'
import { validateServiceAccount } from '../../../../src/registry/strategies/pod/service-account-admission'
import { makeNamespace, podPath, req, staticPod } from '../../../helpers'

const forbidden = (name: string, message: string) => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: `pods ${JSON.stringify(name)} is forbidden: ${message}`,
  reason: 'Forbidden',
  details: { name, kind: 'pods' },
  code: 403,
})
const notFound = (ns: string, sa: string) =>
  `error looking up service account ${ns}/${sa}: serviceaccount ${JSON.stringify(sa)} not found`

const withSpec = (name: string, spec: Record<string, unknown>) => {
  const body = staticPod(name)
  Object.assign(body.spec, spec)
  return body
}

const mirror = (name: string, spec: Record<string, unknown> = {}) => {
  const body = withSpec(name, spec)
  Object.assign(body.metadata, { annotations: { 'kubernetes.io/config.mirror': 'hash' } })
  Object.assign(body.spec, { nodeName: 'mirror-node', schedulerName: undefined })
  return body
}

describe('ServiceAccount admission: a missing ServiceAccount', () => {
  it('refuses a create naming one, with kube’s Forbidden; once it exists the pod is admitted', async () => {
    const ns = await makeNamespace('sarefuse')
    const r = await req('POST', podPath(ns), withSpec('p', { serviceAccountName: 'robot' }))
    expect(r.status).toBe(403)
    // Field for field and in kube's order, as kubectl prints it.
    expect(r.text).toBe(`${JSON.stringify(forbidden('p', notFound(ns, 'robot')))}\n`)
    // The deprecated field names it too.
    const old = await req('POST', podPath(ns), withSpec('q', { serviceAccount: 'robot' }))
    expect(old.json).toEqual(forbidden('q', notFound(ns, 'robot')))
    expect((await req('GET', podPath(ns, 'p'))).status).toBe(404)
    const sa = await req('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, { metadata: { name: 'robot' } })
    expect(sa.status, sa.text).toBe(201)
    const again = await req('POST', podPath(ns), withSpec('p', { serviceAccountName: 'robot' }))
    expect(again.status, again.text).toBe(201)
    expect(again.json.spec.serviceAccountName).toBe('robot')
  })

  it('names a generateName pod by its prefix; dry runs, applies and invalid pods are refused alike', async () => {
    const ns = await makeNamespace('sarefuse')
    const generated = { ...withSpec('', { serviceAccountName: 'robot' }), metadata: { generateName: 'web-' } }
    const g = await req('POST', podPath(ns), generated)
    expect(g.json).toEqual(forbidden('web-', notFound(ns, 'robot')))
    const dry = await req('POST', `${podPath(ns)}?dryRun=All`, withSpec('d', { serviceAccountName: 'robot' }))
    expect(dry.json).toEqual(forbidden('d', notFound(ns, 'robot')))
    const applied = await req(
      'PATCH',
      `${podPath(ns, 'a')}?fieldManager=test`,
      JSON.stringify(withSpec('a', { serviceAccountName: 'robot' })),
      { 'content-type': 'application/apply-patch+yaml' },
    )
    expect(applied.json).toEqual(forbidden('a', notFound(ns, 'robot')))
    // Mutating admission runs before validation: an invalid pod learns about its ServiceAccount first.
    const invalid = withSpec('i', { serviceAccountName: 'robot', containers: [{ name: 'c' }] })
    expect((await req('POST', podPath(ns), invalid)).json).toEqual(forbidden('i', notFound(ns, 'robot')))
  })

  it('never refuses a pod of a namespace made a moment ago, nor right after its default ServiceAccount is deleted', async () => {
    const name = `sanew-${Date.now().toString(36)}`
    expect((await req('POST', '/api/v1/namespaces', { metadata: { name } })).status).toBe(201)
    const first = await req('POST', podPath(name), staticPod('first'))
    expect(first.status, first.text).toBe(201)
    expect(first.json.spec.serviceAccountName).toBe('default')
    const sa = await req('GET', `/api/v1/namespaces/${name}/serviceaccounts/default`)
    expect(sa.status).toBe(200)
    expect((await req('DELETE', `/api/v1/namespaces/${name}/serviceaccounts/default`)).status).toBe(200)
    const second = await req('POST', podPath(name), staticPod('second'))
    expect(second.status, second.text).toBe(201)
    const back = await req('GET', `/api/v1/namespaces/${name}/serviceaccounts/default`)
    expect(back.status).toBe(200)
    expect(back.json.metadata.uid).not.toBe(sa.json.metadata.uid)
    // A pod made by server-side apply, too.
    const applied = await req(
      'PATCH',
      `${podPath(name, 'applied')}?fieldManager=test`,
      JSON.stringify(staticPod('applied')),
      {
        'content-type': 'application/apply-patch+yaml',
      },
    )
    expect(applied.status, applied.text).toBe(201)
  })

  it('leaves updates alone: a pod whose ServiceAccount was deleted still takes a label', async () => {
    const ns = await makeNamespace('sarefuse')
    await req('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, { metadata: { name: 'robot' } })
    const created = await req('POST', podPath(ns), withSpec('p', { serviceAccountName: 'robot' }))
    expect(created.status, created.text).toBe(201)
    expect((await req('DELETE', `/api/v1/namespaces/${ns}/serviceaccounts/robot`)).status).toBe(200)
    const labelled = await req('PATCH', podPath(ns, 'p'), JSON.stringify({ metadata: { labels: { a: 'b' } } }), {
      'content-type': 'application/merge-patch+json',
    })
    expect(labelled.status, labelled.text).toBe(200)
    // An ephemeral container is judged: the ServiceAccount must still exist.
    const debug = structuredClone(labelled.json)
    debug.spec.ephemeralContainers = [{ name: 'debug', image: 'busybox' }]
    const eph = await req('PUT', `${podPath(ns, 'p')}/ephemeralcontainers`, debug)
    expect(eph.json).toEqual(forbidden('p', notFound(ns, 'robot')))
    await req('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, { metadata: { name: 'robot' } })
    const ok = await req('PUT', `${podPath(ns, 'p')}/ephemeralcontainers`, debug)
    expect(ok.status, ok.text).toBe(200)
  })
})

describe('ServiceAccount admission: mirror pods', () => {
  it('admits a mirror pod naming nothing, untouched', async () => {
    const ns = await makeNamespace('samirror')
    const r = await req('POST', podPath(ns), mirror('m'))
    expect(r.status, r.text).toBe(201)
    expect(r.json.spec.serviceAccountName).toBeUndefined()
    expect(r.json.spec.volumes).toBeUndefined()
    // pods/ephemeralcontainers on a pod naming no ServiceAccount is refused.
    const debug = structuredClone(r.json)
    debug.spec.ephemeralContainers = [{ name: 'debug', image: 'busybox' }]
    const eph = await req('PUT', `${podPath(ns, 'm')}/ephemeralcontainers`, debug)
    expect(eph.json).toEqual(forbidden('m', `no service account specified for pod ${ns}/m`))
  })

  it('refuses one naming a ServiceAccount, a secret or a token projection', async () => {
    const ns = await makeNamespace('samirror')
    const cases: [Record<string, unknown>, string][] = [
      [{ serviceAccountName: 'default' }, 'a mirror pod may not reference service accounts'],
      [{ serviceAccount: 'default' }, 'a mirror pod may not reference service accounts'],
      [{ volumes: [{ name: 's', secret: { secretName: 'x' } }] }, 'a mirror pod may not reference secrets'],
      [{ imagePullSecrets: [{ name: 'regcred' }] }, 'a mirror pod may not reference secrets'],
      [
        {
          containers: [
            { name: 'c', image: 'nginx', env: [{ name: 'E', valueFrom: { secretKeyRef: { name: 'x', key: 'k' } } }] },
          ],
        },
        'a mirror pod may not reference secrets',
      ],
    ]
    for (const [spec, message] of cases) {
      const r = await req('POST', podPath(ns), mirror('m', spec))
      expect(r.json, JSON.stringify(spec)).toEqual(forbidden('m', message))
    }
    // Validating admission runs after validation: an invalid mirror pod is a 422.
    const invalid = await req('POST', podPath(ns), mirror('m', { serviceAccountName: 'default', containers: [] }))
    expect(invalid.status).toBe(422)
  })

  it('refuses a token projection (validation refuses one first through the API: no serviceAccountName)', () => {
    const pod = mirror('m', {
      volumes: [{ name: 't', projected: { sources: [{ serviceAccountToken: { path: 'token' } }] } }],
    }) as unknown as PodObject
    expect(validateServiceAccount(pod, { now: new Date(), namespace: 'ns' }, null)).toBe(
      'a mirror pod may not use ServiceAccountToken volume projections',
    )
  })
})

describe('ServiceAccount admission: kubernetes.io/enforce-mountable-secrets', () => {
  const serviceAccount = (ns: string, enforce: string) =>
    req('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, {
      metadata: { name: 'robot', annotations: { 'kubernetes.io/enforce-mountable-secrets': enforce } },
      secrets: [{ name: 'allowed' }],
      imagePullSecrets: [{ name: 'regcred' }],
    })
  const tail = 'is not allowed because service account robot does not reference that secret'
  const env = (secret: string) => [{ name: 'E', valueFrom: { secretKeyRef: { name: secret, key: 'k' } } }]

  it('admits only the secrets the ServiceAccount lists', async () => {
    const ns = await makeNamespace('samount')
    expect((await serviceAccount(ns, 'true')).status).toBe(201)
    const cases: [Record<string, unknown>, string][] = [
      [{ volumes: [{ name: 's', secret: { secretName: 'other' } }] }, `volume with secret.secretName="other" ${tail}`],
      [
        { containers: [{ name: 'c', image: 'nginx', env: env('other') }] },
        `container c with envVar E referencing secret.secretName="other" ${tail}`,
      ],
      [
        { initContainers: [{ name: 'i', image: 'busybox', envFrom: [{ secretRef: { name: 'other' } }] }] },
        `init container i with envFrom referencing secret.secretName="other" ${tail}`,
      ],
      [
        { imagePullSecrets: [{ name: 'regcred' }, { name: 'nope' }] },
        'imagePullSecrets[1].name="nope" is not allowed because service account robot does not reference that imagePullSecret',
      ],
    ]
    for (const [spec, message] of cases) {
      const r = await req('POST', podPath(ns), withSpec('p', { serviceAccountName: 'robot', ...spec }))
      expect(r.json, JSON.stringify(spec)).toEqual(forbidden('p', message))
    }
    const allowed = withSpec('ok', {
      serviceAccountName: 'robot',
      volumes: [{ name: 's', secret: { secretName: 'allowed' } }],
      containers: [{ name: 'c', image: 'nginx', env: env('allowed') }],
    })
    const ok = await req('POST', podPath(ns), allowed)
    expect(ok.status, ok.text).toBe(201)
    // The ServiceAccount's pull secrets, copied in by admission, are its own.
    expect(ok.json.spec.imagePullSecrets).toEqual([{ name: 'regcred' }])
    // An ephemeral container is held to the same list.
    const debug = structuredClone(ok.json)
    debug.spec.ephemeralContainers = [{ name: 'debug', image: 'busybox', env: env('other') }]
    const eph = await req('PUT', `${podPath(ns, 'ok')}/ephemeralcontainers`, debug)
    expect(eph.json).toEqual(
      forbidden('ok', `ephemeral container debug with envVar E referencing secret.secretName="other" ${tail}`),
    )
  })

  it('is off unless the annotation parses as true', async () => {
    const ns = await makeNamespace('samount')
    expect((await serviceAccount(ns, 'yes')).status).toBe(201)
    const r = await req(
      'POST',
      podPath(ns),
      withSpec('p', { serviceAccountName: 'robot', volumes: [{ name: 's', secret: { secretName: 'other' } }] }),
    )
    expect(r.status, r.text).toBe(201)
  })
})
