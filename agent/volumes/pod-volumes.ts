// A pod's volumes on this node, as the kubelet's volume manager sets them up: every volume a container mounts is set
// up before any container starts (a failure is a FailedMount event and the containers keep waiting, retried with
// kube's back-off, 500 ms doubling to 2m2s), under <pod dir>/volumes/kubernetes.io~<plugin>/<name>; API-data volumes
// (configMap, secret, downwardAPI, projected) are written again every SYNC_MS so updates reach the files (kubelet's
// periodic resync; tokens are asked again at 80% of their life). A container's mounts (subPath, subPathExpr, readOnly)
// become the host paths its runtime binds (mount.ts).
import { existsSync, mkdirSync, realpathSync } from 'node:fs'
import { isAbsolute, join, sep } from 'node:path'
import { isNotFound, type KubeClient } from '../kube-client.ts'
import type { Obj } from '../obj.ts'
import { ConfigError, expand } from '../pod-env.ts'
import { type Payload, writePayload } from './atomic-writer.ts'
import { EMPTY_DIR_PLUGIN, makeVolumeDir, makeVolumesDir, releasePodVolumes, setUpEmptyDir } from './empty-dir.ts'
import { checkHostPath } from './host-path.ts'
import type { Mount } from './mount.ts'
import { setVolumeOwnership } from './ownership.ts'
import { mountNamespaceUnsupported } from './mount-namespace.ts'
import { PodTokens } from './pod-tokens.ts'
import {
  configMapPayload,
  DEFAULT_MODE,
  downwardPayload,
  projectedPayload,
  secretPayload,
  type SourceContext,
} from './payloads.ts'

/** How often API-data volumes are written again (a periodic sync, not a watch). */
const SYNC_MS = 10_000
/** kube's exponential back-off for a failed mount operation. */
const BACKOFF_FIRST_MS = 500
const BACKOFF_MAX_MS = 122_000
/** kubelet's WaitForAttachAndMount gives up (and says so in an event) after this long. */
const MOUNT_TIMEOUT_MS = 123_000

const PLUGIN_DIR: Record<string, string> = {
  emptyDir: EMPTY_DIR_PLUGIN,
  configMap: 'kubernetes.io~configmap',
  secret: 'kubernetes.io~secret',
  downwardAPI: 'kubernetes.io~downward-api',
  projected: 'kubernetes.io~projected',
}
/** The API-data volumes: mounted read-only whatever the mount says, and synced. */
const API_DATA = new Set(['configMap', 'secret', 'downwardAPI', 'projected'])

/** A volume the kubelet's desired-state populator cannot process (an unbound claim, no plugin): a pod error. */
class PodVolumeError extends Error {}

export interface VolumeHost {
  podDir: string
  pod(): Obj
  client: KubeClient
  allocatable: Obj
  event(type: 'Normal' | 'Warning', reason: string, message: string): void
  log(msg: string): void
}

const kindOf = (v: Obj) => Object.keys(v).find((k) => k !== 'name') ?? ''

/** Where ServiceAccount admission mounts the API access volume (`kube-api-access-*`) in every container. */
const API_ACCESS_PATH = '/var/run/secrets/kubernetes.io/serviceaccount'
/**
 * Why the process runtime cannot bind at `path` (null: it can): the mount point is made on the host's filesystem, which
 * an agent that is not root may not do under /var/run.
 */
function mountPointUnavailable(path: string): string | null {
  try {
    mkdirSync(path, { recursive: true, mode: 0o755 })
    return null
  } catch (e) {
    return `the agent may not create the mount point on this host (${(e as NodeJS.ErrnoException).code}; make it once as root: mkdir -p ${path})`
  }
}

/** The admission-added API access mount: a `kube-api-access-*` projected volume at the token path. */
const isApiAccess = (m: Obj, kind: string) =>
  m.mountPath === API_ACCESS_PATH && String(m.name).startsWith('kube-api-access-') && kind === 'projected'

/** The volumes the pod's containers mount (kubelet ignores the others: GetPodVolumeNames). */
function mountedNames(pod: Obj): Set<string> {
  const out = new Set<string>()
  for (const list of ['initContainers', 'containers', 'ephemeralContainers'])
    for (const c of (pod.spec?.[list] ?? []) as Obj[]) for (const m of (c.volumeMounts ?? []) as Obj[]) out.add(m.name)
  return out
}

/** A pod that has finished: kubelet tears its volumes down and reads its ConfigMaps, Secrets and tokens no more. */
const finished = (pod: Obj) => pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed'

export class PodVolumes {
  /** The volumes set up: name → the host path containers bind. */
  private readonly paths = new Map<string, string>()
  private readonly host: VolumeHost
  private readonly tokens: PodTokens
  /** The last FailedMount message per volume (a resync repeats one only when it changes). */
  private readonly failed = new Map<string, string>()
  private backoffMs = 0
  private retryAt = 0
  private firstFailure = 0
  private timedOut = false
  private lastPodError = ''
  private timer: NodeJS.Timeout | null = null
  /** Containers told (once) that they run without the API access volume (see mountsFor). */
  private readonly warnedUnmounted = new Set<string>()
  private syncing = false
  /** Stopped for good (the agent stops, the pod is gone): a set-up still under way then starts no sync. */
  private stopped = false
  private ensuring: Promise<number | null> | null = null

  constructor(host: VolumeHost) {
    this.host = host
    this.tokens = new PodTokens(host.client)
    // An agent started again, whose containers run on (adopted, never started again): their volumes are synced on.
    if (existsSync(join(host.podDir, 'volumes'))) void this.ensure()
  }

  private get pod(): Obj {
    return this.host.pod()
  }

  /** Sets up what is not yet; answers null once every mounted volume is, else when to try again (ms epoch). */
  ensure(): Promise<number | null> {
    // One set-up at a time: the sync pass's and the one an adopting agent starts.
    this.ensuring ??= this.ensureOnce().finally(() => (this.ensuring = null))
    return this.ensuring
  }

  private async ensureOnce(): Promise<number | null> {
    const wanted = mountedNames(this.pod)
    const volumes = ((this.pod.spec?.volumes ?? []) as Obj[]).filter((v) => wanted.has(v.name))
    const pending = volumes.filter((v) => !this.paths.has(v.name))
    if (pending.length === 0) {
      this.startSync()
      return null
    }
    if (Date.now() < this.retryAt) return this.retryAt
    makeVolumesDir(this.host.podDir)
    const unmounted: string[] = []
    const unprocessed: string[] = []
    const podErrors: string[] = []
    for (const v of pending) {
      try {
        this.paths.set(v.name, await this.setUp(v))
        this.failed.delete(v.name)
      } catch (e) {
        unmounted.push(v.name)
        const message = (e as Error).message
        if (e instanceof PodVolumeError) {
          unprocessed.push(v.name)
          podErrors.push(message)
        } else this.host.event('Warning', 'FailedMount', `MountVolume.SetUp failed for volume "${v.name}" : ${message}`)
      }
    }
    if (unmounted.length === 0) {
      this.backoffMs = 0
      this.firstFailure = 0
      this.startSync()
      return null
    }
    const now = Date.now()
    this.firstFailure ||= now
    const summary = `unmounted volumes=[${unmounted.join(' ')}], unattached volumes=[], failed to process volumes=[${unprocessed.join(' ')}]`
    // The pod worker's own event: at once for a volume it cannot process, after the wait's timeout otherwise.
    if (podErrors.length) {
      const message = `Unable to attach or mount volumes: ${summary}: ${podErrors.join('; ')}`
      if (message !== this.lastPodError) this.host.event('Warning', 'FailedMount', message)
      this.lastPodError = message
    } else if (!this.timedOut && now - this.firstFailure >= MOUNT_TIMEOUT_MS) {
      this.timedOut = true
      this.host.event(
        'Warning',
        'FailedMount',
        `Unable to attach or mount volumes: ${summary}: context deadline exceeded`,
      )
    }
    this.backoffMs = Math.min(this.backoffMs ? this.backoffMs * 2 : BACKOFF_FIRST_MS, BACKOFF_MAX_MS)
    this.retryAt = now + this.backoffMs
    return this.retryAt
  }

  /**
   * The bind mounts of a container (after ensure()); a bad subPath is a ConfigError, as the kubelet's makeMounts, and so
   * is a process runtime that cannot give the container a mount namespace (never a container without its volumes),
   * except for the API access volume ServiceAccount admission adds to every pod: a container mounting only that runs
   * without it, with a Warning event saying so and where its files are, since otherwise no pod would run on such a
   * host while the program asked for nothing (it finds no token: in-cluster clients fail as off a cluster).
   */
  mountsFor(container: Obj, env: Record<string, string>, runtime: string): Mount[] {
    const kinds = new Map(((this.pod.spec?.volumes ?? []) as Obj[]).map((v) => [v.name as string, kindOf(v)]))
    const out: Mount[] = []
    let apiAccess: Obj | null = null
    for (const m of (container.volumeMounts ?? []) as Obj[]) {
      if (isApiAccess(m, kinds.get(m.name) ?? '')) apiAccess = m
      const volumePath = this.paths.get(m.name)
      if (volumePath === undefined)
        throw new ConfigError(`cannot find volume "${m.name}" to mount into container "${container.name}"`)
      let source = volumePath
      let sub = String(m.subPath ?? '')
      if (m.subPathExpr) {
        const missing = new Set<string>()
        sub = expand(String(m.subPathExpr), (k) => {
          if (!env[k]) missing.add(k)
          return env[k] ?? ''
        })
        if (missing.size) throw new ConfigError(`missing value for ${[...missing].sort().join(', ')}`)
      }
      if (sub) source = this.subPath(volumePath, sub, m.name, container.name)
      out.push({
        source,
        target: String(m.mountPath),
        readOnly: m.readOnly === true || API_DATA.has(kinds.get(m.name) ?? ''),
      })
    }
    const unsupported = out.length && runtime === 'process' ? mountNamespaceUnsupported() : null
    if (unsupported && (!apiAccess || out.length > 1)) throw new ConfigError(unsupported)
    const why = apiAccess && runtime === 'process' ? (unsupported ?? mountPointUnavailable(API_ACCESS_PATH)) : null
    if (!apiAccess || !why) return out
    if (!this.warnedUnmounted.has(container.name)) {
      this.warnedUnmounted.add(container.name)
      this.host.event(
        'Warning',
        'APIAccessNotMounted',
        `container "${container.name}" runs without volume "${apiAccess.name}" at ${API_ACCESS_PATH}: ${why}; its token, ca.crt and namespace files are at ${this.paths.get(apiAccess.name)}`,
      )
    }
    return out.filter((m) => m.target !== API_ACCESS_PATH)
  }

  /** kubelet's subpath handling: relative, no backsteps, created as a directory when missing, kept inside the volume. */
  private subPath(volumePath: string, sub: string, volume: string, container: string): string {
    if (isAbsolute(sub)) throw new ConfigError(`error SubPath \`${sub}\` must not be an absolute path`)
    if (sub.split('/').includes('..'))
      throw new ConfigError(`unable to provision SubPath \`${sub}\`: must not contain '..'`)
    const path = join(volumePath, sub)
    if (!existsSync(path))
      try {
        mkdirSync(path, { recursive: true, mode: 0o777 })
      } catch {
        throw new ConfigError(
          `failed to create subPath directory for volumeMount "${volume}" of container "${container}"`,
        )
      }
    let real: string
    try {
      real = realpathSync(path)
    } catch {
      real = ''
    }
    const root = realpathSync(volumePath)
    if (real !== root && !real.startsWith(root + sep))
      throw new ConfigError(`failed to prepare subPath for volumeMount "${volume}" of container "${container}"`)
    return real
  }

  private dirOf(kind: string, name: string): string {
    return join(this.host.podDir, 'volumes', PLUGIN_DIR[kind]!, name)
  }

  private async setUp(v: Obj): Promise<string> {
    const kind = kindOf(v)
    const src = v[kind] as Obj
    switch (kind) {
      case 'emptyDir': {
        const path = setUpEmptyDir(this.host.podDir, String(this.pod.metadata.uid), v.name, src)
        if (this.fsGroup !== undefined) setVolumeOwnership(path, this.fsGroup, false)
        return path
      }
      case 'hostPath':
        checkHostPath(String(src.path), src.type)
        return String(src.path)
      case 'configMap':
      case 'secret':
      case 'downwardAPI':
      case 'projected': {
        const dir = this.dirOf(kind, v.name)
        const payload = await this.payload(kind, src)
        makeVolumeDir(dir)
        this.write(dir, payload)
        return dir
      }
      case 'persistentVolumeClaim':
        return this.claim(String(src.claimName))
      case 'ephemeral':
        return this.claim(`${this.pod.metadata.name}-${v.name}`)
      default:
        throw new PodVolumeError(
          `failed to get Plugin from volumeSpec for volume "${v.name}" err=no volume plugin matched`,
        )
    }
  }

  /** dswp's getPVCExtractPV: a claim not bound (always here: no storage is simulated) is a pod error. */
  private async claim(claimName: string): Promise<string> {
    const ns = this.pod.metadata.namespace
    const why = (e: string) => new PodVolumeError(`error processing PVC ${ns}/${claimName}: ${e}`)
    let pvc: Obj
    try {
      pvc = await this.host.client.get(`/api/v1/namespaces/${ns}/persistentvolumeclaims/${claimName}`)
    } catch (e) {
      if (isNotFound(e))
        throw why(`failed to fetch PVC from API server: persistentvolumeclaims "${claimName}" not found`)
      throw why(`failed to fetch PVC from API server: ${(e as Error).message}`)
    }
    if (pvc.status?.phase !== 'Bound' || !pvc.spec?.volumeName) throw why('PVC is not bound')
    throw why(`this node has no volume plugin for PersistentVolume "${pvc.spec.volumeName}"`)
  }

  /** The pod's fsGroup, which volume files are given to (kubelet's SetVolumeOwnership). */
  private get fsGroup(): number | undefined {
    const gid = this.pod.spec?.securityContext?.fsGroup
    return typeof gid === 'number' ? gid : undefined
  }

  /** Writes API data; with an fsGroup the files are group-readable (so a resync finds them unchanged) and its group's. */
  private write(dir: string, payload: Payload) {
    const gid = this.fsGroup
    if (gid !== undefined) for (const file of payload.values()) file.mode |= 0o440
    if (writePayload(dir, payload) && gid !== undefined) setVolumeOwnership(dir, gid, true)
  }

  private payload(kind: string, src: Obj): Promise<Payload> {
    const ctx: SourceContext = {
      pod: this.pod,
      client: this.host.client,
      allocatable: this.host.allocatable,
      ...(this.fsGroup !== undefined ? { fsGroup: this.fsGroup } : {}),
      token: (audience, seconds) => this.tokens.get(this.pod, audience, seconds),
    }
    const mode = (src.defaultMode as number | undefined) ?? DEFAULT_MODE
    if (kind === 'configMap') return configMapPayload(ctx, src, mode)
    if (kind === 'secret') return secretPayload(ctx, src, mode)
    if (kind === 'downwardAPI') return Promise.resolve(downwardPayload(ctx, src.items ?? [], mode))
    return projectedPayload(ctx, src.sources ?? [], mode)
  }

  /** The periodic rewrite of API-data volumes (updates to ConfigMaps, Secrets, labels, tokens reach the files). */
  private startSync() {
    if (this.timer || this.stopped || finished(this.pod)) return
    // Only API data changes under a running pod (an emptyDir or hostPath needs no sync).
    if (!((this.pod.spec?.volumes ?? []) as Obj[]).some((v) => API_DATA.has(kindOf(v)) && this.paths.has(v.name)))
      return
    this.timer = setInterval(() => void this.resync(), SYNC_MS)
    this.timer.unref()
  }

  async resync() {
    if (finished(this.pod)) return this.stop()
    if (this.syncing) return
    this.syncing = true
    try {
      for (const v of (this.pod.spec?.volumes ?? []) as Obj[]) {
        const kind = kindOf(v)
        if (!API_DATA.has(kind) || !this.paths.has(v.name)) continue
        try {
          const payload = await this.payload(kind, v[kind])
          if (this.timer === null) return
          this.write(this.paths.get(v.name)!, payload)
          this.failed.delete(v.name)
        } catch (e) {
          const message = `MountVolume.SetUp failed for volume "${v.name}" : ${(e as Error).message}`
          if (this.failed.get(v.name) !== message) this.host.event('Warning', 'FailedMount', message)
          this.failed.set(v.name, message)
        }
      }
    } finally {
      this.syncing = false
    }
  }

  /** The agent stops watching (its containers, and so their volumes, live on). */
  stop() {
    this.stopped = true
    if (this.timer) clearInterval(this.timer)
    this.timer = null
  }

  /** The pod is gone: its memory volumes are released (the pod directory itself is the worker's to remove). */
  teardown() {
    this.stop()
    releasePodVolumes(this.host.podDir, String(this.pod.metadata.uid), this.host.log)
  }
}
