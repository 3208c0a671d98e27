// emptyDir volumes on the host, as kubelet's empty_dir plugin keeps them: a 0777 directory under the pod's volumes;
// medium Memory a tmpfs the agent mounts there when it may (root on Linux; sizeLimit its size, as kubelet's
// SizeMemoryBackedVolumes makes it), else a directory under /dev/shm (memory-backed, but sized by /dev/shm alone);
// and their release when the pod is gone (the tmpfs unmounted before the pod directory is removed).
import { spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { Obj } from '../obj.ts'
import { quantity } from '../pod-env.ts'

/** kubelet's directory name for the emptyDir plugin. */
export const EMPTY_DIR_PLUGIN = 'kubernetes.io~empty-dir'

/** A volume directory anyone in the container may write (kubelet's 0777), made once. */
export function makeVolumeDir(dir: string) {
  if (existsSync(dir)) return
  mkdirSync(dir, { recursive: true })
  chmodSync(dir, 0o777)
}

/**
 * The pod's volumes directory, which other users of the host may not enter (0750, as kubelet's pods directory): it
 * holds the pod's Secrets and tokens, 0644 files by default. Containers see their volumes through their binds, made by
 * the agent's user or the engine (root), never through this path.
 */
export function makeVolumesDir(podDir: string) {
  const dir = join(podDir, 'volumes')
  mkdirSync(dir, { recursive: true })
  // Also an earlier agent's (mkdir's mode is the umask's).
  chmodSync(dir, 0o750)
}

/** Whether `dir` is a mount point (its device differs from its parent's). */
function mountPoint(dir: string): boolean {
  try {
    return statSync(dir).dev !== statSync(dirname(dir)).dev
  } catch {
    return false
  }
}

const shmDir = () => (existsSync('/dev/shm') ? '/dev/shm' : tmpdir())

/** Sets up emptyDir `name` of pod `uid`; answers the host path containers bind. */
export function setUpEmptyDir(podDir: string, uid: string, name: string, src: Obj): string {
  const dir = join(podDir, 'volumes', EMPTY_DIR_PLUGIN, name)
  if (src.medium !== 'Memory') {
    makeVolumeDir(dir)
    return dir
  }
  if (process.getuid?.() === 0 && process.platform === 'linux') {
    makeVolumeDir(dir)
    // Mounted already: by this agent's earlier pass, or by an agent before it (the pod's containers use it).
    if (mountPoint(dir)) return dir
    const options = ['mode=0777', ...(src.sizeLimit ? [`size=${Math.ceil(quantity(src.sizeLimit))}`] : [])]
    const r = spawnSync('mount', ['-t', 'tmpfs', '-o', options.join(','), 'tmpfs', dir], { encoding: 'utf8' })
    if (r.status !== 0) throw new Error(`mount failed: ${(r.stderr || r.error?.message || '').trim()}`)
    return dir
  }
  const memDir = join(shmDir(), `kubeflare-${uid}-${name}`)
  makeVolumeDir(memDir)
  return memDir
}

/**
 * What of a pod's volumes outlives a recursive removal of its directory: the tmpfs of each medium-Memory emptyDir is
 * unmounted (a removal would fail on its mount point, EBUSY), and the /dev/shm directories of an agent that could not
 * mount one are removed. For a pod gone, whether its worker or an agent started again finds it so (pod-manager.ts).
 */
export function releasePodVolumes(podDir: string, uid: string, log: (msg: string) => void) {
  const emptyDirs = join(podDir, 'volumes', EMPTY_DIR_PLUGIN)
  let names: string[] = []
  try {
    names = readdirSync(emptyDirs)
  } catch {
    // no emptyDir
  }
  for (const name of names) {
    const dir = join(emptyDirs, name)
    if (!mountPoint(dir)) continue
    const r = spawnSync('umount', [dir], { encoding: 'utf8' })
    if (r.status !== 0) log(`unmounting ${dir}: ${(r.stderr || r.error?.message || '').trim()}`)
  }
  try {
    for (const n of readdirSync(shmDir()))
      if (n.startsWith(`kubeflare-${uid}-`)) rmSync(join(shmDir(), n), { recursive: true, force: true })
  } catch {
    // nothing there
  }
}
