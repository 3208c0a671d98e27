// Images by imagePullPolicy, as the kubelet's image manager readies them: Never uses what is there
// (ErrImageNeverPull), IfNotPresent pulls what is missing, Always pulls at every start; a pull runs in the
// background (the container waits in ContainerCreating) and a failed one is ErrImagePull, then ImagePullBackOff
// until its back-off (per pod and image) has passed. Events carry the kubelet's wording.
import { Backoff } from '../backoff.ts'
import { goDuration } from '../durations.ts'
import type { Obj } from '../obj.ts'
import { type Cli, cliError } from './cli.ts'
import { withDefaultTag } from './cli-args.ts'
import type { ImageWait, RuntimeEvent } from './runtime.ts'

/** What the engine knows of an image. */
export interface ImageInfo {
  id: string
  size: number
  repoDigests: string[]
}

/** ContainerStatus.imageID as containerd and CRI-O report it: the repo digest, else the image's id. */
export const imageID = (info: ImageInfo | undefined) => info?.repoDigests[0] ?? info?.id ?? ''

/** kube's default pull policy (the API server sets it; a pod from elsewhere may lack it). */
const defaultPolicy = (image: string) => (/:latest$/.test(withDefaultTag(image)) ? 'Always' : 'IfNotPresent')

/** Go's Duration.String() of whole milliseconds ("0s" for none). */
const duration = (ms: number) => (ms === 0 ? '0s' : goDuration(ms))

export class ImagePuller {
  /** Pulls under way and pulls that ended since the container last asked, by pod and image. */
  private readonly pulls = new Map<string, Promise<void>>()
  private readonly ended = new Map<string, { error?: string }>()
  private readonly info = new Map<string, ImageInfo>()
  /** When a pull last failed, by pod and image (its back-off counts from then). */
  private readonly lastFailure = new Map<string, number>()
  private readonly backoff: Backoff
  private readonly cli: Cli

  constructor(cli: Cli, backoffInitialMs: number, backoffMaxMs: number) {
    this.cli = cli
    this.backoff = new Backoff(backoffInitialMs, backoffMaxMs)
  }

  /** What was learnt of an image (its id for ContainerStatus.imageID). */
  known(image: string): ImageInfo | undefined {
    return this.info.get(withDefaultTag(image))
  }

  async inspect(image: string): Promise<ImageInfo | undefined> {
    const ref = withDefaultTag(image)
    const r = await this.cli.run(['image', 'inspect', '--format', '{{.Id}} {{.Size}} {{json .RepoDigests}}', ref])
    if (r.code !== 0) return undefined
    const m = /^(\S+) (\d+) (.*)$/.exec(r.stdout.trim())
    if (!m) return undefined
    let repoDigests: string[] = []
    try {
      repoDigests = (JSON.parse(m[3]!) as string[] | null) ?? []
    } catch {
      repoDigests = []
    }
    const info = { id: m[1]!, size: Number(m[2]), repoDigests }
    this.info.set(ref, info)
    return info
  }

  /** null: the image is there; else why the container waits. */
  async ensure(container: Obj, podUID: string, event: RuntimeEvent, pulled: () => void): Promise<ImageWait | null> {
    const image = withDefaultTag(String(container.image ?? ''))
    const policy = String(container.imagePullPolicy ?? defaultPolicy(image))
    const key = `${podUID}_${image}`
    if (this.pulls.has(key)) return { reason: 'ContainerCreating' }
    const ended = this.ended.get(key)
    if (ended) {
      this.ended.delete(key)
      if (ended.error === undefined) return null
      event('Warning', 'Failed', 'Error: ErrImagePull')
      // Asked again soon, as the kubelet's pod worker requeues a failed sync: ImagePullBackOff until the back-off ends.
      return {
        reason: 'ErrImagePull',
        message: ended.error,
        retryAt: Date.now() + Math.min(1000, this.backoff.delay(key)),
      }
    }
    const present = policy === 'Always' ? undefined : await this.inspect(image)
    if (present) {
      event('Normal', 'Pulled', `Container image "${image}" already present on machine`)
      return null
    }
    if (policy === 'Never') {
      const message = `Container image "${image}" is not present with pull policy of Never`
      event('Warning', 'ErrImageNeverPull', message)
      event('Warning', 'Failed', 'Error: ErrImageNeverPull')
      return { reason: 'ErrImageNeverPull', message, retryAt: Date.now() + this.backoff.delay('') }
    }
    const now = Date.now()
    if (this.backoff.restartAt(key, this.lastFailure.get(key) ?? 0) > now) {
      const message = `Back-off pulling image "${image}"`
      event('Normal', 'BackOff', message)
      event('Warning', 'Failed', 'Error: ImagePullBackOff')
      return { reason: 'ImagePullBackOff', message, retryAt: this.backoff.restartAt(key, this.lastFailure.get(key)!) }
    }
    event('Normal', 'Pulling', `Pulling image "${image}"`)
    const pull = this.cli.run(['pull', image], 30 * 60_000).then(async (r) => {
      if (r.code !== 0) {
        const error = cliError(r)
        event('Warning', 'Failed', `Failed to pull image "${image}": ${error}`)
        this.lastFailure.set(key, Date.now())
        this.backoff.next(key, Date.now())
        this.ended.set(key, { error })
      } else {
        const info = await this.inspect(image)
        const took = duration(Date.now() - now)
        event(
          'Normal',
          'Pulled',
          `Successfully pulled image "${image}" in ${took} (${took} including waiting). Image size: ${info?.size ?? 0} bytes.`,
        )
        this.backoff.forget(key)
        this.lastFailure.delete(key)
        this.ended.set(key, {})
      }
      this.pulls.delete(key)
      pulled()
    })
    this.pulls.set(key, pull)
    return { reason: 'ContainerCreating' }
  }
}
