// DefaultTolerationSeconds' settings: the Worker vars change the seconds admission gives the tolerations it adds, a
// value kube's int64 flag would not take is refused (the Worker answers 503 naming the setting) and changes nothing.
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it } from 'vitest'
import { buildApp } from '../../../../src/app'
import {
  configureDefaultTolerationSeconds,
  defaultTolerationSeconds,
} from '../../../../src/registry/strategies/pod/default-toleration-seconds'
import { admitPod } from '../../../../src/registry/strategies/pod/pod-admission'
import { applyPodDefaults } from '../../../../src/registry/strategies/pod/pod-defaults'
import { BASE, withToken } from '../../../helpers'
import { sparse } from './pod-fixtures'

const NOT_READY = 'KUBEFLARE_DEFAULT_NOT_READY_TOLERATION_SECONDS'
const UNREACHABLE = 'KUBEFLARE_DEFAULT_UNREACHABLE_TOLERATION_SECONDS'

const admitted = (extra: Record<string, unknown> = {}) => {
  const pod = structuredClone(sparse()) as Parameters<typeof admitPod>[0]
  Object.assign(pod.spec, extra)
  applyPodDefaults(pod)
  admitPod(pod, { now: new Date(), namespace: 'default' }, null)
  return pod.spec.tolerations
}

describe('DefaultTolerationSeconds settings', () => {
  afterEach(() => {
    expect(configureDefaultTolerationSeconds(env)).toBeNull()
  })

  it('are 300 each as wrangler.toml sets them, kube’s default', () => {
    expect(configureDefaultTolerationSeconds(env)).toBeNull()
    expect(defaultTolerationSeconds()).toEqual({ notReady: 300, unreachable: 300 })
    expect(configureDefaultTolerationSeconds({})).toBeNull()
    expect(defaultTolerationSeconds()).toEqual({ notReady: 300, unreachable: 300 })
  })

  it('give the added tolerations other seconds; a pod’s own toleration stays', () => {
    expect(configureDefaultTolerationSeconds({ [NOT_READY]: '30', [UNREACHABLE]: '7' })).toBeNull()
    expect(admitted()).toEqual([
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 7 },
    ])
    const own = { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 1 }
    expect(admitted({ tolerations: [own] })).toEqual([
      own,
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 },
    ])
    expect(configureDefaultTolerationSeconds({ [NOT_READY]: '0', [UNREACHABLE]: '+600' })).toBeNull()
    expect(defaultTolerationSeconds()).toEqual({ notReady: 0, unreachable: 600 })
  })

  it('refuse what is not a whole number of seconds, keeping the seconds they had', () => {
    expect(configureDefaultTolerationSeconds({ [NOT_READY]: '45', [UNREACHABLE]: '46' })).toBeNull()
    for (const bad of ['soon', '1.5', '1e3', '99999999999999999999']) {
      expect(configureDefaultTolerationSeconds({ [UNREACHABLE]: bad })).toBe(
        `${UNREACHABLE} must be a whole number of seconds (kube-apiserver's --default-unreachable-toleration-seconds), not ${JSON.stringify(bad)}`,
      )
      expect(defaultTolerationSeconds()).toEqual({ notReady: 45, unreachable: 46 })
    }
    expect(configureDefaultTolerationSeconds({ [NOT_READY]: '-' })).toContain('--default-not-ready-toleration-seconds')
  })

  it('a bad one makes the Worker answer 503 naming it', async () => {
    const res = await buildApp().fetch(
      new Request(`${BASE}/api/v1/namespaces/default/pods`, { headers: withToken() }),
      { ...env, [NOT_READY]: 'soon' },
      { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext,
    )
    expect(res.status).toBe(503)
    const status = (await res.json()) as { reason: string; message: string }
    expect(status.reason).toBe('ServiceUnavailable')
    expect(status.message).toBe(
      `the server's admission configuration is invalid: ${NOT_READY} must be a whole number of seconds (kube-apiserver's --default-not-ready-toleration-seconds), not "soon"`,
    )
  })
})
