// kube's root-ca-cert-publisher: every namespace holds kube-root-ca.crt with the cluster's CA (KUBEFLARE_ROOT_CA) and
// kube's description annotation; a delete brings it back, an edit of its data or annotation is put back.
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { makeNamespace, req, waitFor } from '../helpers'

const CA = (env as unknown as { KUBEFLARE_ROOT_CA: string }).KUBEFLARE_ROOT_CA
const DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.'
const path = (ns: string) => `/api/v1/namespaces/${ns}/configmaps/kube-root-ca.crt`
const MERGE = { 'content-type': 'application/merge-patch+json' }

async function published(ns: string, ok: (cm: any) => boolean = () => true) {
  return waitFor(`${ns}/kube-root-ca.crt`, async () => {
    const g = await req('GET', path(ns))
    return g.status === 200 && ok(g.json) ? g.json : undefined
  })
}

describe('kube-root-ca.crt', () => {
  it('is in a new namespace and in the system ones, with the CA and the description', async () => {
    const ns = await makeNamespace('rootca')
    const cm = await published(ns)
    expect(cm.data).toEqual({ 'ca.crt': CA })
    expect(cm.metadata.annotations).toEqual({ 'kubernetes.io/description': DESCRIPTION })
    expect(cm.metadata.managedFields[0].manager).toBe('kube-controller-manager')
    for (const system of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
      expect((await published(system)).data['ca.crt']).toBe(CA)
    }
  })

  it('comes back after a delete', async () => {
    const ns = await makeNamespace('rootca')
    const first = await published(ns)
    expect((await req('DELETE', path(ns))).status).toBe(200)
    const again = await published(ns, (cm) => cm.metadata.uid !== first.metadata.uid)
    expect(again.data).toEqual({ 'ca.crt': CA })
  })

  it('has its data and annotation put back after an edit; other annotations and labels stay', async () => {
    const ns = await makeNamespace('rootca')
    await published(ns)
    const edited = await req(
      'PATCH',
      path(ns),
      {
        metadata: { labels: { mine: 'yes' }, annotations: { 'kubernetes.io/description': null, other: 'kept' } },
        data: { 'ca.crt': 'tampered', extra: 'x' },
      },
      MERGE,
    )
    expect(edited.status, edited.text).toBe(200)
    const restored = await published(ns, (cm) => cm.data['ca.crt'] === CA && !cm.data.extra)
    expect(restored.data).toEqual({ 'ca.crt': CA })
    expect(restored.metadata.annotations).toEqual({ 'kubernetes.io/description': DESCRIPTION, other: 'kept' })
    expect(restored.metadata.labels).toEqual({ mine: 'yes' })
  })
})
