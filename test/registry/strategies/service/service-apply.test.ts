// Server-side apply of services: list items keyed by (port, protocol) match when the applied port leaves protocol
// out (its default, TCP, is the key), as structured-merge-diff does; no false conflicts, no duplicated ports.
import { describe, expect, it } from 'vitest'
import { makeNamespace, req } from '../../../helpers'

const APPLY = { 'content-type': 'application/apply-patch+yaml' }

describe('server-side apply of a service', () => {
  it('an applied port without protocol is the stored TCP port', async () => {
    const ns = await makeNamespace('ssa')
    const body = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'app' },
      spec: { type: 'NodePort', selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 8080 }] },
    }
    const c = await req('POST', `/api/v1/namespaces/${ns}/services?fieldManager=kubectl-client-side-apply`, body)
    expect(c.status, c.text).toBe(201)
    const applied = structuredClone(body) as typeof body & { spec: { ports: Record<string, unknown>[] } }
    applied.spec.ports.push({ name: 'dns', port: 53, protocol: 'UDP' })
    const a = await req(
      'PATCH',
      `/api/v1/namespaces/${ns}/services/app?fieldManager=kubectl`,
      JSON.stringify(applied),
      APPLY,
    )
    expect(a.status, a.text).toBe(200)
    expect(a.json.spec.ports.map((p: any) => `${p.name} ${p.port}/${p.protocol} ${p.targetPort}`)).toEqual([
      'http 80/TCP 8080',
      'dns 53/UDP 53',
    ])
    expect(a.json.spec.ports[0].nodePort).toBe(c.json.spec.ports[0].nodePort)
    const mine = a.json.metadata.managedFields.find((m: any) => m.manager === 'kubectl')
    expect(Object.keys(mine.fieldsV1['f:spec']['f:ports']).sort()).toEqual([
      'k:{"port":53,"protocol":"UDP"}',
      'k:{"port":80,"protocol":"TCP"}',
    ])
    // Applying the same configuration again changes nothing.
    const again = await req(
      'PATCH',
      `/api/v1/namespaces/${ns}/services/app?fieldManager=kubectl`,
      JSON.stringify(applied),
      APPLY,
    )
    expect(again.json.metadata.resourceVersion).toBe(a.json.metadata.resourceVersion)
  })
})
