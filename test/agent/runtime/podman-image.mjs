// A real podman for the runtime's tests, where one runs containers here: an image made from the host's static busybox
// (podman import, no registry) and a containers.conf pointing podman at runc with lower ulimits (a sandbox without
// CAP_SYS_RESOURCE needs them). podmanUnusable() answers why podman cannot be tried, or null once a container ran.
import { execFileSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { onPath } from '../../../agent/runtime/cli.ts'

export const PODMAN_IMAGE = 'localhost/kubeflare-test-busybox:1'

export function podmanUnusable() {
  if (!onPath('podman')) return 'podman is not on PATH'
  if (!existsSync('/bin/busybox')) return 'no static /bin/busybox to make an image of'
  const root = mkdtempSync(join(tmpdir(), 'podman-image-'))
  const conf = join(root, 'containers.conf')
  writeFileSync(
    conf,
    '[containers]\ndefault_ulimits = ["nofile=1024:1024", "nproc=1000:1000"]\n[engine]\nruntime = "runc"\n',
  )
  process.env.CONTAINERS_CONF = conf
  const podman = (...args) => execFileSync('podman', args, { encoding: 'utf8', stdio: 'pipe', timeout: 120_000 })
  try {
    podman('image', 'exists', PODMAN_IMAGE)
  } catch {
    const fs = join(root, 'rootfs')
    mkdirSync(join(fs, 'bin'), { recursive: true })
    copyFileSync('/bin/busybox', join(fs, 'bin', 'busybox'))
    for (const c of ['sh', 'echo', 'cat', 'sleep', 'httpd', 'mkdir', 'env', 'true'])
      symlinkSync('busybox', join(fs, 'bin', c))
    execFileSync('tar', ['-C', fs, '-cf', join(root, 'rootfs.tar'), '.'])
    try {
      podman('import', '--change', 'CMD ["sh"]', join(root, 'rootfs.tar'), PODMAN_IMAGE)
    } catch (e) {
      return `podman import: ${e.stderr || e.message}`
    }
  }
  try {
    podman('run', '--rm', '--network', 'host', '--pull', 'never', PODMAN_IMAGE, 'true')
  } catch (e) {
    return `podman cannot run a container here: ${(e.stderr || e.message).trim()}`
  }
  return null
}
