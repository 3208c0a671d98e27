// Tables of built-in kinds over the real server: the column descriptions are the ones kube-apiserver sends (its
// printers' texts, the whole swagger doc of the field), as `kubectl get` asks for them (as=Table;v=v1;g=meta.k8s.io).
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { api, kubectl } from './helpers.mjs'

const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json'
const NAME_DOC =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names'
const AGE_DOC =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata'

describe('Table column descriptions', () => {
  it("pods: kube's bytes for the Name and IP columns", async () => {
    const r = await api('GET', '/api/v1/namespaces/default/pods', undefined, { accept: TABLE })
    assert.equal(r.status, 200)
    assert.ok(
      r.text.includes(
        `{"name":"Name","type":"string","format":"name","description":${JSON.stringify(NAME_DOC)},"priority":0}`,
      ),
    )
    const byName = Object.fromEntries(r.body.columnDefinitions.map((c) => [c.name, c.description]))
    assert.equal(byName.Age, AGE_DOC)
    assert.equal(
      byName.IP,
      'podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.',
    )
    assert.equal(byName.Ready, 'The aggregate readiness state of this pod for accepting traffic.')
  })

  it('kubectl get still prints its columns from them', async () => {
    const out = (await kubectl('1.33', ['get', 'namespaces', 'default'])).stdout
    assert.match(out, /^NAME\s+STATUS\s+AGE\n/)
  })
})
