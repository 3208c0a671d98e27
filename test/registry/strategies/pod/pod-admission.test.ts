// The ServiceAccount admission's API access volume, as kube 1.33's plugin adds it: its exact shape, its mount in every
// init and regular container, the opt-outs (pod, then ServiceAccount), mirror pods, an existing mount at the token
// path, creates only (a PUT, an ephemeral container, a Deployment's template get nothing), and the ServiceAccount's
// imagePullSecrets; through the store (the Worker) and on the bare function.
import { describe, expect, it } from 'vitest'
import { admitPod } from '../../../../src/registry/strategies/pod/pod-admission'
import type { PodObject } from '../../../../src/registry/strategies/pod/pod-types'
import { makeNamespace, podPath, req, staticPod } from '../../../helpers'

const TOKEN_PATH = '/var/run/secrets/kubernetes.io/serviceaccount'
const NAME = /^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/

/** The volume kube's TokenVolumeSource makes, as a 1.33 apiserver stores and serves it. */
const apiAccessVolume = (name: string) => ({
  name,
  projected: {
    sources: [
      { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
      { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      {
        downwardAPI: {
          items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }],
        },
      },
    ],
    defaultMode: 420,
  },
})
const tokenMount = (name: string) => ({ name, readOnly: true, mountPath: TOKEN_PATH })

async function create(ns: string, body: unknown) {
  const r = await req('POST', podPath(ns), body)
  expect(r.status, r.text).toBe(201)
  return r.json
}

describe('ServiceAccount admission: the kube-api-access volume', () => {
  it('a created pod gets the projected volume and a read-only mount in every init and regular container', async () => {
    const ns = await makeNamespace('saadm')
    const body = staticPod('p')
    Object.assign(body.spec, {
      initContainers: [{ name: 'init', image: 'busybox' }],
      containers: [
        { name: 'a', image: 'nginx', volumeMounts: [{ name: 'scratch', mountPath: '/scratch' }] },
        { name: 'b', image: 'nginx' },
      ],
      volumes: [{ name: 'scratch', emptyDir: {} }],
    })
    const pod = await create(ns, body)
    const volumes = pod.spec.volumes
    expect(volumes).toHaveLength(2)
    const name = volumes[1].name
    expect(name).toMatch(NAME)
    // Appended after the pod's own volumes, in kube's field order on the wire.
    expect(JSON.stringify(volumes[1])).toBe(JSON.stringify(apiAccessVolume(name)))
    expect(volumes[0]).toEqual({ name: 'scratch', emptyDir: {} })
    expect(pod.spec.initContainers[0].volumeMounts).toEqual([tokenMount(name)])
    expect(pod.spec.containers[0].volumeMounts).toEqual([{ name: 'scratch', mountPath: '/scratch' }, tokenMount(name)])
    expect(JSON.stringify(pod.spec.containers[1].volumeMounts)).toBe(JSON.stringify([tokenMount(name)]))
    // The writer does not own what admission added.
    expect(JSON.stringify(pod.metadata.managedFields)).not.toContain('kube-api-access')
    // A GET serves what was stored; each pod draws its own name.
    const got = await req('GET', podPath(ns, 'p'))
    expect(got.json.spec.volumes).toEqual(volumes)
    const other = await create(ns, staticPod('q'))
    expect(other.spec.volumes[0].name).toMatch(NAME)
  })

  it('automountServiceAccountToken: false on the pod, or on its ServiceAccount unless the pod says true, opts out', async () => {
    const ns = await makeNamespace('saadm')
    const off = await create(ns, {
      ...staticPod('off'),
      spec: { ...staticPod('off').spec, automountServiceAccountToken: false },
    })
    expect(off.spec.volumes).toBeUndefined()
    expect(off.spec.containers[0].volumeMounts).toBeUndefined()
    const sa = await req('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, {
      metadata: { name: 'quiet' },
      automountServiceAccountToken: false,
      imagePullSecrets: [{ name: 'regcred' }],
    })
    expect(sa.status, sa.text).toBe(201)
    const quiet = await create(ns, {
      ...staticPod('quiet'),
      spec: { ...staticPod('quiet').spec, serviceAccountName: 'quiet' },
    })
    expect(quiet.spec.volumes).toBeUndefined()
    // The ServiceAccount's imagePullSecrets come along when the pod names none.
    expect(quiet.spec.imagePullSecrets).toEqual([{ name: 'regcred' }])
    const own = await create(ns, {
      ...staticPod('own'),
      spec: {
        ...staticPod('own').spec,
        serviceAccountName: 'quiet',
        automountServiceAccountToken: true,
        imagePullSecrets: [{ name: 'mine' }],
      },
    })
    expect(own.spec.volumes[0].name).toMatch(NAME)
    expect(own.spec.imagePullSecrets).toEqual([{ name: 'mine' }])
  })

  it('a container mounting something at the token path keeps it; a pod with a kube-api-access-* volume reuses it', async () => {
    const ns = await makeNamespace('saadm')
    const body = staticPod('mine')
    Object.assign(body.spec, {
      containers: [
        { name: 'a', image: 'nginx', volumeMounts: [{ name: 'own', mountPath: TOKEN_PATH }] },
        { name: 'b', image: 'nginx' },
      ],
      volumes: [{ name: 'own', emptyDir: {} }],
    })
    const pod = await create(ns, body)
    const name = pod.spec.volumes[1].name
    expect(pod.spec.containers[0].volumeMounts).toEqual([{ name: 'own', mountPath: TOKEN_PATH }])
    expect(pod.spec.containers[1].volumeMounts).toEqual([tokenMount(name)])
    // Every container mounts the path already: no volume.
    const all = staticPod('all')
    Object.assign(all.spec, {
      containers: [{ name: 'a', image: 'nginx', volumeMounts: [{ name: 'own', mountPath: TOKEN_PATH }] }],
      volumes: [{ name: 'own', emptyDir: {} }],
    })
    expect((await create(ns, all)).spec.volumes).toEqual([{ name: 'own', emptyDir: {} }])
    // A volume already named kube-api-access-* is the one mounted (kube takes the first such name, whatever it holds).
    const reuse = staticPod('reuse')
    Object.assign(reuse.spec, { volumes: [{ name: 'kube-api-access-mine', emptyDir: {} }] })
    const reused = await create(ns, reuse)
    expect(reused.spec.volumes).toEqual([{ name: 'kube-api-access-mine', emptyDir: {} }])
    expect(reused.spec.containers[0].volumeMounts).toEqual([tokenMount('kube-api-access-mine')])
  })

  it('only a create: a PUT without the volume is refused as any spec change, an ephemeral container gets no mount', async () => {
    const ns = await makeNamespace('saadm')
    const pod = await create(ns, staticPod('p'))
    const name = pod.spec.volumes[0].name
    const sparse = staticPod('p')
    const put = await req('PUT', podPath(ns, 'p'), sparse)
    expect(put.status).toBe(422)
    expect(put.json.message).toContain('pod updates may not change fields other than')
    // The stored pod PUT back unchanged is no change.
    const same = await req('PUT', podPath(ns, 'p'), pod)
    expect(same.status, same.text).toBe(200)
    expect(same.json.metadata.resourceVersion).toBe(pod.metadata.resourceVersion)
    const withDebug = structuredClone(same.json)
    withDebug.spec.ephemeralContainers = [{ name: 'debug', image: 'busybox' }]
    const eph = await req('PUT', `${podPath(ns, 'p')}/ephemeralcontainers`, withDebug)
    expect(eph.status, eph.text).toBe(200)
    expect(eph.json.spec.ephemeralContainers[0].volumeMounts).toBeUndefined()
    expect(eph.json.spec.volumes).toEqual([apiAccessVolume(name)])
  })

  it('a Deployment’s template gets nothing; the pods made from it do', async () => {
    const ns = await makeNamespace('saadm')
    const d = await req('POST', `/apis/apps/v1/namespaces/${ns}/deployments`, {
      metadata: { name: 'web' },
      spec: {
        replicas: 0,
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
      },
    })
    expect(d.status, d.text).toBe(201)
    expect(d.json.spec.template.spec.volumes).toBeUndefined()
    expect(d.json.spec.template.spec.containers[0].volumeMounts).toBeUndefined()
  })

  it('a mirror pod is left alone', () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'm', namespace: 'default', annotations: { 'kubernetes.io/config.mirror': 'x' } },
      spec: { containers: [{ name: 'c', image: 'nginx' }] },
    } as unknown as PodObject
    admitPod(pod, { now: new Date(), namespace: 'default' }, null)
    expect(pod.spec.volumes).toBeUndefined()
    expect(pod.spec.containers[0].volumeMounts).toBeUndefined()
    expect(pod.spec.serviceAccountName).toBeUndefined()
  })
})
