// How a controller records an Event: created through its host's create verb like any client's, under the
// controller's component name as field manager (kube's event recorders write through the API with their user agent).
import type { EventSpec } from '../registry/event-recorder'
import { eventAbout } from '../registry/event-recorder'
import type { KubeObject } from '../schema/meta'
import type { ControllerHost } from './controller'

export async function recordEvent(host: ControllerHost, about: KubeObject, spec: EventSpec): Promise<void> {
  const r = await host.create('events', eventAbout(about, spec, new Date()), { fieldManager: spec.component })
  // An event that cannot be recorded (its namespace is going away) is dropped, as kube's recorder drops it.
  if (!r.ok && r.status.code !== 403 && r.status.code !== 404)
    console.error(`recording event ${spec.reason} failed`, r.status.message)
}
