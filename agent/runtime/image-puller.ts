// Images by imagePullPolicy, as the kubelet's image manager readies them: Never uses what is there
// (ErrImageNeverPull), IfNotPresent pulls what is missing, Always pulls at every start; a pull runs in the
// background (the container waits in ContainerCreating) and a failed one is ErrImagePull, then ImagePullBackOff
// until its back-off (per pod and image) has passed. Events carry the kubelet's wording. A pull uses the pod's
// imagePullSecrets: each credential that matches the image's registry in turn (pull-credentials.ts), handed to the CLI
// in a private client configuration removed after the pull; none matching, the CLI's own login.
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Backoff } from '../backoff.ts'
import { goDuration } from '../durations.ts'
import type { Obj } from '../obj.ts'
import { type Cli, type CliResult, cliError } from './cli.ts'
import { withDefaultTag } from './cli-args.ts'
import {
  lookupCredentials,
  type PullCredential,
  PullSecretError,
  removeClientConfig,
  writeClientConfig,
} from './pull-credentials.ts'
import type { ImageContext, ImageWait } from './runtime.ts'

/** What the engine knows of an image. */
export interface ImageInfo {
  id: string
  size: number
  repoDigests: string[]
  /** The image's configured user (Config.User: `name`, `uid`, `uid:gid`; '' for none). */
  user: string
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
  /** When a pull last failed and why, by pod and image (its back-off counts from then). */
  private readonly lastFailure = new Map<string, { at: number; error: string }>()
  private readonly backoff: Backoff
  private readonly cli: Cli
  /** Where the client configurations of pulls with credentials are written (each removed after its pull). */
  private readonly authRoot: string

  constructor(cli: Cli, backoffInitialMs: number, backoffMaxMs: number, dataDir?: string) {
    this.cli = cli
    this.backoff = new Backoff(backoffInitialMs, backoffMaxMs)
    this.authRoot = join(dataDir ?? tmpdir(), dataDir ? 'pull-auth' : `kubeflare-pull-auth-${process.pid}`)
    // What an agent that died during a pull left.
    removeClientConfig(this.authRoot)
  }

  /** What was learnt of an image (its id for ContainerStatus.imageID). */
  known(image: string): ImageInfo | undefined {
    return this.info.get(withDefaultTag(image))
  }

  async inspect(image: string): Promise<ImageInfo | undefined> {
    const ref = withDefaultTag(image)
    const format = '{{.Id}} {{.Size}} {{json .Config.User}} {{json .RepoDigests}}'
    const r = await this.cli.run(['image', 'inspect', '--format', format, ref])
    if (r.code !== 0) return undefined
    const m = /^(\S+) (\d+) ("(?:[^"\\]|\\.)*"|null) (.*)$/.exec(r.stdout.trim())
    if (!m) return undefined
    let repoDigests: string[] = []
    let user = ''
    try {
      repoDigests = (JSON.parse(m[4]!) as string[] | null) ?? []
      user = (JSON.parse(m[3]!) as string | null) ?? ''
    } catch {
      repoDigests = []
    }
    const info = { id: m[1]!, size: Number(m[2]), repoDigests, user }
    this.info.set(ref, info)
    return info
  }

  /** null: the image is there; else why the container waits. */
  async ensure(container: Obj, ctx: ImageContext): Promise<ImageWait | null> {
    const { event, pulled } = ctx
    const podUID = String(ctx.pod.metadata?.uid ?? '')
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
    const failed = this.lastFailure.get(key)
    if (failed && this.backoff.restartAt(key, failed.at) > now) {
      const message = `Back-off pulling image "${image}"`
      event('Normal', 'BackOff', message)
      event('Warning', 'Failed', 'Error: ImagePullBackOff')
      // The waiting message carries the last pull's error (kubelet 1.32+'s prevPullErrMsg); the event does not.
      return {
        reason: 'ImagePullBackOff',
        message: `${message}: ErrImagePull: ${failed.error}`,
        retryAt: this.backoff.restartAt(key, failed.at),
      }
    }
    const pull = (async () => {
      // The kubelet reads the pod's pull secrets at every sync; one it cannot read is an event, and the pull goes on.
      const secrets = await this.pullSecrets(ctx)
      event('Normal', 'Pulling', `Pulling image "${image}"`)
      const error = await this.pullWith(image, secrets).catch((e: Error) => e.message)
      if (error !== null) {
        event('Warning', 'Failed', `Failed to pull image "${image}": ${error}`)
        this.lastFailure.set(key, { at: Date.now(), error })
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
    })()
    this.pulls.set(key, pull)
    return { reason: 'ContainerCreating' }
  }

  /** The pod's pull secrets that could be read (getPullSecretsForPod), the others named in one event. */
  private async pullSecrets(ctx: ImageContext): Promise<Obj[]> {
    const found: Obj[] = []
    const failed: string[] = []
    for (const ref of (ctx.pod.spec?.imagePullSecrets ?? []) as Obj[]) {
      // API validation lets an empty name through; the kubelet skips it.
      if (!ref?.name) continue
      try {
        found.push(await ctx.secret(String(ref.name)))
      } catch {
        failed.push(String(ref.name))
      }
    }
    if (failed.length)
      ctx.podEvent(
        'Warning',
        'FailedToRetrieveImagePullSecret',
        `Unable to retrieve some image pull secrets (${failed.join(', ')}); attempting to pull the image may not succeed.`,
      )
    return found
  }

  /**
   * Pulls with each matching credential in turn until one works (the kubelet's PullImage), else without any: null, or
   * the error as the kubelet words it (one failure's, or every distinct one's in brackets).
   */
  private async pullWith(image: string, secrets: Obj[]): Promise<string | null> {
    let creds: PullCredential[]
    try {
      creds = lookupCredentials(secrets, image)
    } catch (e) {
      if (e instanceof PullSecretError) return e.message
      throw e
    }
    if (creds.length === 0) {
      const r = await this.cli.run(['pull', image], 30 * 60_000)
      return r.code === 0 ? null : cliError(r)
    }
    const errors: string[] = []
    for (const cred of creds) {
      const r = await this.pullAs(image, cred)
      if (r.code === 0) return null
      const error = cliError(r)
      if (!errors.includes(error)) errors.push(error)
    }
    return errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]`
  }

  /** One pull with one credential: docker's --config directory or podman's --authfile, removed after the pull. */
  private async pullAs(image: string, cred: PullCredential): Promise<CliResult> {
    const { dir, file } = writeClientConfig(this.authRoot, image, cred)
    try {
      const args = this.cli.name === 'podman' ? ['pull', '--authfile', file, image] : ['--config', dir, 'pull', image]
      return await this.cli.run(args, 30 * 60_000)
    } finally {
      removeClientConfig(dir)
    }
  }
}
