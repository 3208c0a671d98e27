// The view of its host a controller gets (ControllerHost, src/host/controller.ts): the host's objects, its internal
// writes, and wake-ups through the DO's alarm.
import type { Change, Stored } from '../registry/store'
import type { LogEntry } from '../log/d1-log'
import type { ControllerHost } from './controller'
import type { LocalStore } from './local-store'
import { wakeNoLaterThan } from './expiry'
import type { Result } from '../registry/status'
import type { KubeObject } from '../schema/meta'
import type { WriteAnswer } from './rpc-types'

export function controllerHostOf(host: {
  scope: string
  env: Env
  local: LocalStore
  storage: DurableObjectStorage
  internalWrite(resource: string, name: string, plan: (current: Stored | null) => Change | null): Promise<LogEntry | null>
  create(resource: string, obj: KubeObject, fieldManager: string): Promise<Result<WriteAnswer>>
}): ControllerHost {
  const { local } = host
  return {
    scope: host.scope,
    env: host.env,
    get: (resource, name) => local.get(resource, name),
    all: (resource) => local.all(resource),
    attending: (resource) => local.attending(resource),
    dependents: (uid) => local.dependents(uid),
    owners: () => local.owners(),
    write: (resource, name, plan) => host.internalWrite(resource, name, plan),
    create: (resource, obj, fieldManager) => host.create(resource, obj, fieldManager),
    wakeAt: (at) => wakeNoLaterThan(host.storage, at),
  }
}
