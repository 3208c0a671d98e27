// The process runtime's own programs (the shim's python3, nsenter, the --become helper) are the node's, found on the
// agent's PATH: a pod that sets its own PATH (PATH=/app/bin) still starts, and its hooks and execs run, in its mount
// namespace and as its user.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { chmodSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { hostPython, hostTool } from '../../agent/host-tools.ts'
import { last, setup, until } from './worker-harness.mjs'

const isRoot = process.getuid() === 0

describe('host tools', () => {
  it('finds them on the agent’s PATH, python3 as the interpreter itself', () => {
    assert.match(hostTool('nsenter'), /^\/.*\/nsenter$/)
    const python = hostPython()
    assert.match(python, /^\//)
    // The interpreter runs with an environment that has no PATH at all (a wrapper script would not).
    const r = spawnSync(python, ['-I', '-S', '-c', 'print(1)'], { env: {}, encoding: 'utf8' })
    assert.equal(r.stdout, '1\n', r.stderr)
  })

  it('runs a container whose PATH has none of them, its postStart and exec in its volumes and as its user', {
    skip: !isRoot && 'needs root (a mount namespace and another user)',
  }, async () => {
    const root = mkdtempSync(join(tmpdir(), 'mnt-'))
    // The mount point is reached through the host's directories: the container's user may search them.
    chmodSync(root, 0o755)
    const t = setup({
      securityContext: { runAsUser: 65534, supplementalGroupsPolicy: 'Strict' },
      volumes: [{ name: 'scratch', emptyDir: {} }],
      containers: [
        {
          name: 'c',
          command: ['/bin/sleep', '30'],
          env: [{ name: 'PATH', value: '/app/bin' }],
          volumeMounts: [{ name: 'scratch', mountPath: `${root}/scratch` }],
          lifecycle: { postStart: { exec: { command: ['/bin/sh', '-c', `/usr/bin/id -u > ${root}/scratch/hook`] } } },
        },
      ],
    })
    t.worker.sync()
    await until('Running', () => last(t.api)?.containerStatuses?.[0]?.state.running)
    assert.deepEqual(
      t.events.filter((e) => e.startsWith('Warning')),
      [],
    )
    const run = t.worker.record('c').execIn(['/bin/cat', `${root}/scratch/hook`], { stdin: false, tty: false })
    const out = spawnSync(run.argv[0], run.argv.slice(1), { cwd: run.cwd, env: run.env, encoding: 'utf8' })
    // Written by the hook as the container's user into its emptyDir, which the host's path does not show.
    assert.equal(out.stdout, '65534\n', out.stderr || String(out.error))
    assert.equal(spawnSync('ls', [`${root}/scratch`], { encoding: 'utf8' }).stdout, '')
  })
})
