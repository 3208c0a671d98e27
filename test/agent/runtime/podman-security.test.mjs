// securityContext against a real podman (skipped where none runs containers): the flags the agent maps it to are
// taken by the engine, and the container's process has the uid, groups, bounding set, no_new_privs and read-only root
// they ask for; runAsNonRoot against the imported image (no configured user: root) is refused as the kubelet words it.
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { after, before, describe, it } from 'node:test'
import { parseRecords } from '../../../agent/cri-log.ts'
import { selectRuntime } from '../../../agent/runtime/select-runtime.ts'
import { setup, status, until } from './cli-harness.mjs'
import { PODMAN_IMAGE, podmanUnusable } from './podman-image.mjs'

const savedConf = process.env.CONTAINERS_CONF
const why = podmanUnusable()
let runtime
before(async () => {
  if (why) return
  runtime = await selectRuntime('podman', {
    node: 'podman-sec',
    backoffInitialMs: 500,
    backoffMaxMs: 2000,
    log: () => {},
  })
})
after(() => {
  if (savedConf === undefined) delete process.env.CONTAINERS_CONF
  else process.env.CONTAINERS_CONF = savedConf
})

describe('securityContext under a real podman', { skip: why ?? false }, () => {
  it('runs the container as the user, with its groups, no capabilities, no_new_privs and a read-only root', async () => {
    const script =
      'busybox id -u; busybox id -G; busybox grep -E "^(CapBnd|NoNewPrivs)" /proc/self/status; ' +
      'busybox touch /x 2>/dev/null && echo writable || echo read-only; exec sleep 30'
    const t = setup(runtime, {
      securityContext: { runAsUser: 65534, runAsGroup: 65534, supplementalGroups: [4000] },
      containers: [
        {
          name: 'c',
          image: PODMAN_IMAGE,
          imagePullPolicy: 'Never',
          command: ['sh', '-c', script],
          securityContext: {
            allowPrivilegeEscalation: false,
            readOnlyRootFilesystem: true,
            capabilities: { drop: ['ALL'] },
          },
        },
      ],
    })
    await until('Running', () => status(t)?.state.running, 60_000, t)
    const log = t.worker.record('c').logFile(0)
    await until('its output', () => parseRecords(readFileSync(log, 'utf8')).length >= 5, 30_000)
    assert.deepEqual(
      parseRecords(readFileSync(log, 'utf8')).map((r) => r.text),
      ['65534', '65534 4000', 'CapBnd:\t0000000000000000', 'NoNewPrivs:\t1', 'read-only'],
    )
  })

  it('refuses runAsNonRoot for the image, which has no configured user (root)', async () => {
    const t = setup(
      runtime,
      {
        securityContext: { runAsNonRoot: true },
        containers: [{ name: 'c', image: PODMAN_IMAGE, imagePullPolicy: 'Never', command: ['sleep', '30'] }],
      },
      { metadata: { name: 'web', uid: 'u-2' } },
    )
    await until('the refusal', () => status(t)?.state.waiting?.reason === 'CreateContainerConfigError', 30_000, t)
    assert.equal(
      status(t).state.waiting.message,
      'container has runAsNonRoot and image will run as root (pod: "web_n(u-2)", container: c)',
    )
  })
})
