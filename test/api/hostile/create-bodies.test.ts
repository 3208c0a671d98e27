// Hostile create bodies against every resource discovery lists with a create verb: unreadable JSON and YAML, wrong
// kinds and versions, bad metadata and names, strict decoding, sizes and media types. Every answer is a refusal
// with a Status (or a 2xx where kube takes the input), and a refused create leaves nothing behind.
import { describe, it } from 'vitest'
import { makeNamespace } from '../../helpers'
import { createCases } from './bodies'
import { nameFor, validObject } from './fixtures'
import { KNOWN_BUGS } from './known-bug-ids'
import { Findings, send } from './refusal'
import { collection, servedResources, stored } from './served'

const served = (await servedResources()).filter((s) => s.verbs.includes('create'))
const ns = await makeNamespace('hostile-create')
let serial = 0

/** Kinds whose names kube checks only as path segments (ValidateRBACName; the generic registry's BeforeCreate). */
const PATH_SEGMENT_NAMES = new Set(['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding', 'PodDisruptionBudget'])

describe.concurrent('hostile create bodies, every resource with a create verb', () => {
  it.each(served.map((s) => [`${s.groupVersion} ${s.resource}`, s] as const))('%s', async (_, s) => {
    const findings = new Findings(KNOWN_BUGS)
    const path = collection(s, ns)
    const refusedNames: string[] = []
    const named = stored(s)
    const example = validObject(s.groupVersion, s.kind, 'x', ns) ?? {
      apiVersion: s.groupVersion,
      kind: s.kind,
      metadata: named ? { name: 'x' } : {},
    }
    const traits = { named, namespaced: s.namespaced, pathSegmentNames: PATH_SEGMENT_NAMES.has(s.kind) }
    for (const c of createCases(example, traits)) {
      // Each case under a name of its own, so what a refused create might leave behind is told apart.
      const name = nameFor(s.kind, `hostile-${(serial++).toString(36)}-${Date.now().toString(36)}`)
      let body = c.body
      if (named && typeof body === 'object' && !(body instanceof Uint8Array) && body.metadata?.name === 'x') {
        const fresh = validObject(s.groupVersion, s.kind, name)
        body = { ...body, metadata: { ...body.metadata, name } }
        if (s.kind === 'CustomResourceDefinition' && fresh) body = { ...body, spec: fresh.spec }
      }
      const r = await findings.send(
        `${s.resource} create ${c.id}`,
        'POST',
        path + (c.query ?? ''),
        body,
        c.headers ?? {},
        c.want,
      )
      if (r.status < 200 || r.status >= 300) refusedNames.push(name)
    }
    if (named) {
      const list = await send('GET', path)
      const left = (list.json?.items ?? [])
        .map((o: any) => o.metadata.name)
        .filter((n: string) => refusedNames.includes(n))
      if (left.length > 0) findings.add(`${s.resource} create half-written`, `refused creates left ${left.join(', ')}`)
    }
    findings.expectNone()
  })
})
