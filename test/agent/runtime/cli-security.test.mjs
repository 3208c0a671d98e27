// securityContext under the container runtime: the effective context (pod's fields under the container's), its
// docker/podman flags exactly, the run's argv through the stand-in CLI, and runAsNonRoot checked as the kubelet checks
// it (runAsUser, else the image's configured user from inspect) with its exact CreateContainerConfigError messages.
import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { securityArgs } from '../../../agent/runtime/cli-security.ts'
import { effectiveSecurity } from '../../../agent/runtime/security-context.ts'
import { image, setup, standIn, status, until } from './cli-harness.mjs'

let s
before(async () => {
  s = await standIn('docker', {
    images: {
      'rootimg:1': image('sha256:r1'),
      'uidimg:1': image('sha256:u1', { User: '1000:1000' }),
      'nameimg:1': image('sha256:n1', { User: 'app' }),
    },
  })
})

const podSC = {
  runAsUser: 1000,
  runAsGroup: 3000,
  supplementalGroups: [4000, 4001],
  fsGroup: 2000,
  sysctls: [{ name: 'kernel.shm_rmid_forced', value: '1' }],
  seccompProfile: { type: 'RuntimeDefault' },
}

describe('container runtime: securityContext', () => {
  it('merges the pod’s context under the container’s (the container wins)', () => {
    const sc = effectiveSecurity(
      { spec: { securityContext: podSC } },
      { securityContext: { runAsUser: 7, privileged: true } },
    )
    assert.equal(sc.runAsUser, 7)
    assert.equal(sc.runAsGroup, 3000)
    assert.equal(sc.privileged, true)
    assert.deepEqual(sc.supplementalGroups, [4000, 4001])
    assert.equal(sc.fsGroup, 2000)
    assert.deepEqual(sc.seccompProfile, { type: 'RuntimeDefault' })
    assert.deepEqual(effectiveSecurity(undefined, {}), { supplementalGroups: [], sysctls: [] })
  })

  it('maps every field onto docker’s and podman’s flags', () => {
    const sc = effectiveSecurity(
      {
        spec: {
          securityContext: { ...podSC, seccompProfile: { type: 'Localhost', localhostProfile: 'profiles/audit.json' } },
        },
      },
      {
        securityContext: {
          privileged: false,
          capabilities: { add: ['NET_ADMIN'], drop: ['ALL'] },
          readOnlyRootFilesystem: true,
          allowPrivilegeEscalation: false,
          appArmorProfile: { type: 'Localhost', localhostProfile: 'k8s-deny' },
          seLinuxOptions: { type: 'spc_t', level: 's0:c1' },
          procMount: 'Unmasked',
        },
      },
    )
    const common = [
      '--user',
      '1000:3000',
      '--group-add',
      '2000',
      '--group-add',
      '4000',
      '--group-add',
      '4001',
      '--cap-add',
      'NET_ADMIN',
      '--cap-drop',
      'ALL',
      '--read-only',
      '--security-opt',
      'no-new-privileges',
      '--security-opt',
      'seccomp=/data/seccomp/profiles/audit.json',
      '--security-opt',
      'apparmor=k8s-deny',
      '--security-opt',
      'label=type:spc_t',
      '--security-opt',
      'label=level:s0:c1',
    ]
    const sysctl = ['--sysctl', 'kernel.shm_rmid_forced=1']
    assert.deepEqual(securityArgs('docker', sc, '', '/data'), [
      ...common,
      '--security-opt',
      'systempaths=unconfined',
      ...sysctl,
    ])
    assert.deepEqual(securityArgs('podman', sc, '', '/data'), [...common, '--security-opt', 'unmask=ALL', ...sysctl])
    // Unconfined profiles; privileged; runAsGroup alone keeps the image's user (root when it has none).
    const loose = effectiveSecurity(
      { spec: { securityContext: { runAsGroup: 5 } } },
      {
        securityContext: {
          privileged: true,
          seccompProfile: { type: 'Unconfined' },
          appArmorProfile: { type: 'Unconfined' },
        },
      },
    )
    assert.deepEqual(securityArgs('docker', loose, 'app', '/d'), [
      '--user',
      'app:5',
      '--privileged',
      '--security-opt',
      'seccomp=unconfined',
      '--security-opt',
      'apparmor=unconfined',
    ])
    assert.deepEqual(securityArgs('docker', loose, '', '/d').slice(0, 2), ['--user', '0:5'])
    assert.deepEqual(securityArgs('docker', effectiveSecurity(undefined, {}), 'app', '/d'), [])
  })

  it('runs the container with the pod’s and the container’s flags', async () => {
    const t = setup(s.runtime, {
      securityContext: { runAsUser: 1000, supplementalGroups: [4000] },
      containers: [
        {
          name: 'c',
          image: 'rootimg:1',
          imagePullPolicy: 'Never',
          command: ['sleep', '30'],
          securityContext: { runAsGroup: 3000, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
        },
      ],
    })
    await until('Running', () => status(t)?.state.running, 15_000, t)
    const run = s.callsOf('run').find((c) => c.argv.includes(`kubeflare_${t.uid}_c_0`))
    const at = run.argv.indexOf('--user')
    assert.deepEqual(run.argv.slice(at, run.argv.indexOf('--entrypoint')), [
      '--user',
      '1000:3000',
      '--group-add',
      '4000',
      '--cap-drop',
      'ALL',
      '--security-opt',
      'no-new-privileges',
    ])
  })

  const refused = async (img, podSc, containerSc) => {
    const t = setup(
      s.runtime,
      {
        securityContext: podSc,
        containers: [
          { name: 'c', image: img, imagePullPolicy: 'Never', command: ['sleep', '30'], securityContext: containerSc },
        ],
      },
      { metadata: { name: 'web', uid: 'u-1' } },
    )
    await until(
      'a verdict',
      () => status(t)?.state.running || status(t)?.state.waiting?.reason === 'CreateContainerConfigError',
      15_000,
      t,
    )
    return t
  }

  it('refuses runAsNonRoot for an image that runs as root, or by a name it cannot verify, as the kubelet words it', async () => {
    const where = '(pod: "web_n(u-1)", container: c)'
    let t = await refused('rootimg:1', { runAsNonRoot: true })
    assert.deepEqual(status(t).state.waiting, {
      reason: 'CreateContainerConfigError',
      message: `container has runAsNonRoot and image will run as root ${where}`,
    })
    assert.ok(
      t.events.includes(`Warning Failed: Error: container has runAsNonRoot and image will run as root ${where}`),
    )
    assert.equal(s.callsOf('run').filter((c) => c.argv.includes('kubeflare_u-1_c_0')).length, 0)
    t = await refused('nameimg:1', {}, { runAsNonRoot: true })
    assert.equal(
      status(t).state.waiting.message,
      `container has runAsNonRoot and image has non-numeric user (app), cannot verify user is non-root ${where}`,
    )
    t = await refused('uidimg:1', { runAsNonRoot: true }, { runAsUser: 0 })
    assert.equal(status(t).state.waiting.message, `container's runAsUser breaks non-root policy ${where}`)
  })

  it('lets runAsNonRoot through for an image with a non-root uid, or a non-root runAsUser', async () => {
    assert.ok(status(await refused('uidimg:1', { runAsNonRoot: true })).state.running)
    assert.ok(status(await refused('rootimg:1', { runAsNonRoot: true, runAsUser: 10 })).state.running)
  })
})
