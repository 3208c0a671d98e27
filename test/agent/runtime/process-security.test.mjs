// securityContext under the process runtime: what the shim is asked to apply (as root and not), what is refused and
// how it is worded, and, with real processes (this agent runs as root where the suite runs), the container's and an
// exec's uid, groups, bounding set and no_new_privs read back from the kernel.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { describe, it } from 'node:test'
import { parseRecords } from '../../../agent/cri-log.ts'
import { processSecurity } from '../../../agent/runtime/process-security.ts'
import { last, setup, sh, until } from '../worker-harness.mjs'

const pod = (sc = {}) => ({ metadata: { name: 'web', namespace: 'n', uid: 'u-1' }, spec: { securityContext: sc } })
const c = (sc) => ({ name: 'c', ...(sc ? { securityContext: sc } : {}) })
const ROOT = { uid: 0, gid: 0 }
const USER = { uid: 1000, gid: 1000 }
const refusal = (p, container, agent = ROOT) => {
  try {
    processSecurity(p, container, agent)
  } catch (e) {
    return `${e.constructor.name}: ${e.message}`
  }
  return null
}
const isRoot = process.getuid() === 0

describe('process runtime: securityContext', () => {
  it('asks the shim for the user, its group and groups, dropped capabilities and no_new_privs', () => {
    assert.equal(processSecurity(pod(), c(), ROOT), undefined)
    assert.deepEqual(
      processSecurity(
        pod({
          runAsUser: 4242,
          runAsGroup: 5,
          supplementalGroups: [7, 8],
          fsGroup: 6,
          supplementalGroupsPolicy: 'Strict',
        }),
        c({ allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE'] } }),
        ROOT,
      ),
      {
        uid: 4242,
        gid: 5,
        groups: [6, 7, 8],
        dropCaps: [...Array(41).keys()].filter((n) => n !== 10),
        noNewPrivs: true,
      },
    )
    // The container's runAsUser wins; with no runAsGroup, the user's group from /etc/passwd (65534 is nobody), else 0.
    assert.deepEqual(processSecurity(pod({ runAsUser: 1 }), c({ runAsUser: 65534 }), ROOT).uid, 65534)
    assert.equal(processSecurity(pod({ runAsUser: 65534 }), c(), ROOT).gid, 65534)
    assert.equal(processSecurity(pod({ runAsUser: 4242 }), c(), ROOT).gid, 0)
    // Not root: a drop is kept by no_new_privs (its processes hold no capabilities), nothing else is asked.
    assert.deepEqual(processSecurity(pod(), c({ capabilities: { drop: ['NET_RAW'] } }), USER), { noNewPrivs: true })
    assert.equal(processSecurity(pod({ runAsUser: 1000, runAsNonRoot: true }), c(), USER), undefined)
  })

  it('refuses what a host process cannot honour, in words saying why', () => {
    const cannot = 'ConfigError: the process runtime cannot honour securityContext.'
    assert.equal(
      refusal(pod(), c({ readOnlyRootFilesystem: true })),
      `${cannot}readOnlyRootFilesystem: a host process shares the node’s filesystem, which it cannot make read-only`,
    )
    assert.equal(
      refusal(pod({ seccompProfile: { type: 'RuntimeDefault' } }), c()),
      `${cannot}seccompProfile (RuntimeDefault): a host process gets no seccomp filter; only Unconfined can be run`,
    )
    assert.equal(refusal(pod({ seccompProfile: { type: 'Unconfined' } }), c()), null)
    assert.equal(
      refusal(pod(), c({ appArmorProfile: { type: 'Localhost', localhostProfile: 'x' } })),
      `${cannot}appArmorProfile (Localhost): a host process gets no AppArmor profile; only Unconfined can be run`,
    )
    assert.match(
      refusal(pod({ seLinuxOptions: { level: 's0' } }), c()),
      /seLinuxOptions: a host process gets no SELinux/,
    )
    assert.equal(
      refusal(pod({ sysctls: [{ name: 'net.core.somaxconn', value: '1024' }] }), c()),
      `${cannot}sysctls (net.core.somaxconn): a host process shares the node’s kernel namespaces, so they would change the node’s own`,
    )
    assert.equal(refusal(pod(), c({ capabilities: { add: ['NET_ADMIN'] }, privileged: true })), null)
    assert.equal(
      refusal(pod(), c({ capabilities: { drop: ['BOGUS'] } })),
      `${cannot}capabilities.drop: BOGUS is not a Linux capability`,
    )
    assert.equal(
      refusal(pod(), c({ privileged: true }), USER),
      `${cannot}privileged: the node agent does not run as root (uid 1000), so its processes are not privileged`,
    )
    assert.equal(
      refusal(pod({ runAsUser: 65534 }), c(), USER),
      `${cannot.slice(0, -1)}: the node agent does not run as root (uid 1000), so its containers run as uid 1000 and gid 1000 only, with no other groups`,
    )
  })

  it('checks runAsNonRoot against the uid the process runs as, worded as the kubelet', () => {
    const where = '(pod: "web_n(u-1)", container: c)'
    assert.equal(
      refusal(pod({ runAsNonRoot: true }), c()),
      `ConfigError: container has runAsNonRoot and image will run as root ${where}`,
    )
    assert.equal(refusal(pod({ runAsNonRoot: true }), c(), USER), null)
    assert.equal(
      refusal(pod({ runAsNonRoot: true }), c({ runAsUser: 0 })),
      `ConfigError: container's runAsUser breaks non-root policy ${where}`,
    )
    assert.equal(refusal(pod({ runAsNonRoot: true, runAsUser: 10 }), c()), null)
  })

  it('runs the container and an exec as the user, with its groups, bounding set and no_new_privs', {
    skip: !isRoot && 'needs root',
  }, async () => {
    const script = 'id -u; id -g; id -G; grep -E "^(CapBnd|CapEff|NoNewPrivs)" /proc/self/status; sleep 30'
    const t = setup({
      securityContext: { runAsUser: 65534, supplementalGroups: [4000], supplementalGroupsPolicy: 'Strict' },
      containers: [
        {
          name: 'c',
          command: sh(script),
          securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
        },
      ],
    })
    t.worker.sync()
    await until('Running', () => last(t.api)?.containerStatuses?.[0]?.state.running)
    const r = t.worker.record('c')
    await until('output', () => parseRecords(readFileSync(r.logFile(0), 'utf8')).length >= 6)
    const lines = parseRecords(readFileSync(r.logFile(0), 'utf8')).map((x) => x.text)
    assert.deepEqual(lines, [
      '65534',
      '65534',
      '65534 4000',
      'CapEff:\t0000000000000000',
      'CapBnd:\t0000000000000000',
      'NoNewPrivs:\t1',
    ])
    const run = r.execIn(sh('id -u; id -G; grep -E "^(CapBnd|NoNewPrivs)" /proc/self/status'), {
      stdin: false,
      tty: false,
    })
    const out = spawnSync(run.argv[0], run.argv.slice(1), { cwd: run.cwd, env: run.env, encoding: 'utf8' })
    assert.equal(out.stdout, '65534\n65534 4000\nCapBnd:\t0000000000000000\nNoNewPrivs:\t1\n', out.stderr)
  })

  it('execs as a user that has no other groups', { skip: !isRoot && 'needs root' }, async () => {
    const t = setup({
      securityContext: { runAsUser: 65534, runAsGroup: 65534, supplementalGroupsPolicy: 'Strict' },
      containers: [{ name: 'c', command: sh('sleep 30') }],
    })
    t.worker.sync()
    await until('Running', () => last(t.api)?.containerStatuses?.[0]?.state.running)
    const run = t.worker.record('c').execIn(sh('id -u; id -G'), { stdin: false, tty: false })
    const out = spawnSync(run.argv[0], run.argv.slice(1), { cwd: run.cwd, env: run.env, encoding: 'utf8' })
    assert.equal(out.stdout, '65534\n65534\n', out.stderr)
  })

  it('execs into a container with no securityContext as the agent itself (no --become)', async () => {
    const t = setup({ containers: [{ name: 'c', command: sh('sleep 30') }] })
    t.worker.sync()
    await until('Running', () => last(t.api)?.containerStatuses?.[0]?.state.running)
    const run = t.worker.record('c').execIn(['true'], { stdin: false, tty: false })
    // Straight into the container (nsenter where it has namespaces of its own), with no shim.py --become between.
    assert.equal(run.argv.at(-1), 'true')
    assert.ok(!run.argv.includes('--become'), String(run.argv))
  })

  it('keeps a refused container waiting in CreateContainerConfigError with the kubelet’s event', {
    skip: !isRoot && 'needs root',
  }, async () => {
    const t = setup({ securityContext: { runAsNonRoot: true }, containers: [{ name: 'c', command: sh('sleep 30') }] })
    t.worker.sync()
    const message = `container has runAsNonRoot and image will run as root (pod: "p_n(${t.pod.metadata.uid})", container: c)`
    await until(
      'refused',
      () => last(t.api)?.containerStatuses?.[0]?.state.waiting?.reason === 'CreateContainerConfigError',
    )
    assert.deepEqual(last(t.api).containerStatuses[0].state.waiting, { reason: 'CreateContainerConfigError', message })
    assert.ok(t.events.includes(`Warning Failed: Error: ${message}`), String(t.events))
  })
})
