import { it } from 'vitest'
import { makeNamespace, req } from '../../helpers'
import { nested } from './bodies'
it('x', async () => {
  const ns = await makeNamespace('hx')
  const base = `/api/v1/namespaces/${ns}/configmaps`
  await req('POST', base, { metadata: { name: 'a', labels: { x: 'y' } }, data: { a: 'b' } })
  await req('POST', `/api/v1/namespaces/${ns}/pods`, {
    metadata: { name: 'p', labels: { x: 'y' } },
    spec: { containers: [{ name: 'c', image: 'i' }] },
  })
  const show = (label: string, r: any) => console.log(label, r.status, r.text.slice(0, 500))
  show(
    'json depth',
    await req('PATCH', `${base}/a`, `[{"op":"add","path":"/metadata/annotations","value":${nested(20000)}}]`, {
      'content-type': 'application/json-patch+json',
    }),
  )
  show(
    'merge depth',
    await req('PATCH', `${base}/a`, `{"metadata":{"annotations":{"a":${nested(20000)}}}}`, {
      'content-type': 'application/merge-patch+json',
    }),
  )
  show(
    'merge depth 150',
    await req('PATCH', `${base}/a`, `{"metadata":{"annotations":{"a":${nested(150)}}}}`, {
      'content-type': 'application/merge-patch+json',
    }),
  )
  show(
    'op-missing',
    await req('PATCH', `${base}/a`, JSON.stringify([{ path: '/metadata/labels/a', value: 'b' }]), {
      'content-type': 'application/json-patch+json',
    }),
  )
  show(
    'op-unknown',
    await req('PATCH', `${base}/a`, JSON.stringify([{ op: 'frob', path: '/metadata/labels/a', value: 'b' }]), {
      'content-type': 'application/json-patch+json',
    }),
  )
  show(
    'remove-metadata',
    await req('PATCH', `${base}/a`, JSON.stringify([{ op: 'remove', path: '/metadata' }]), {
      'content-type': 'application/json-patch+json',
    }),
  )
  show(
    'top-delete cm',
    await req('PATCH', `${base}/a`, JSON.stringify({ $patch: 'delete' }), {
      'content-type': 'application/strategic-merge-patch+json',
    }),
  )
  show(
    'top-delete pod',
    await req('PATCH', `/api/v1/namespaces/${ns}/pods/p`, JSON.stringify({ $patch: 'delete' }), {
      'content-type': 'application/strategic-merge-patch+json',
    }),
  )
  show('get', await req('GET', `${base}/a`))
})
