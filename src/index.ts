// Worker entry: the Hono app and the Durable Object classes, nothing else.
import { buildApp } from './app'

export { NamespaceObject } from './namespace/namespace-object'
export { ClusterObject } from './cluster/cluster-object'
export { WatchHub } from './cluster/watch-hub'
export { NodeTunnel } from './node/node-tunnel'

export default buildApp()
