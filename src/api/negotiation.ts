// Content negotiation as kube-apiserver's handlers/negotiation does it: which serializer answers a request's Accept
// header (or 406), which reads its Content-Type (or 415), and what the chosen clause asks of the answer (a Table, a
// watch stream, pretty output). Endpoints differ only in their restrictions, as kube's EndpointRestrictions do.
import { statuses, StatusError } from '../registry/status'
import { parseAccept, parseMediaType } from './media-type'

/** One of the serializers kube's codec factory offers (runtime.SerializerInfo), in its order. */
interface SerializerInfo {
  mediaType: string
  type: string
  subType: string
  /** Whether it writes watch streams (StreamSerializer != nil). */
  stream: boolean
}

const serializer = (mediaType: string, stream: boolean): SerializerInfo => {
  const [type, subType] = mediaType.split('/') as [string, string]
  return { mediaType, type, subType, stream }
}

/**
 * What kube's scheme codecs offer, for built-in and custom resources, discovery and errors alike. Every answer here
 * is written as JSON (the Content-Type says so; clients decode by it): negotiating over kube's list keeps which
 * requests are refused, and the 406 and 415 wording, exactly kube's.
 */
const SERIALIZERS: readonly SerializerInfo[] = [
  serializer('application/json', true),
  serializer('application/yaml', false),
  serializer('application/vnd.kubernetes.protobuf', true),
]
const MEDIA_TYPES = SERIALIZERS.map((s) => s.mediaType)
/** MediaTypesForSerializer's stream list, what a watch's 406 names. */
const STREAM_MEDIA_TYPES = SERIALIZERS.filter((s) => s.stream).map((s) => `${s.mediaType};stream=watch`)

/** A transformation the Accept clause asks for (`as`, `g`, `v` parameters): a Table, partial metadata, discovery. */
export interface Conversion {
  kind: string
  group: string
  version: string
}

/** negotiation.MediaTypeOptions: what the chosen clause asks of the answer. */
export interface MediaTypeOptions {
  accepted: SerializerInfo
  convert?: Conversion
  pretty: boolean
  stream: string
}

/** negotiation.EndpointRestrictions: what an endpoint can do with a clause's parameters. */
export interface EndpointRestrictions {
  allowsMediaTypeTransform(type: string, subType: string, target: Conversion | undefined): boolean
  allowsServerVersion(version: string): boolean
}

/** DefaultEndpointRestrictions: no transformation, no server version (discovery, errors). */
export const DEFAULT_ENDPOINT: EndpointRestrictions = {
  allowsMediaTypeTransform: (_type, _subType, target) => target === undefined,
  allowsServerVersion: () => false,
}

/** aggregated.IsAggregatedDiscoveryGVK with AggregatedDiscoveryRemoveBetaType on (1.33's default): v2 only. */
export const isAggregatedDiscovery = (t: Conversion | undefined) =>
  t?.group === 'apidiscovery.k8s.io' && t.version === 'v2' && t.kind === 'APIGroupDiscoveryList'

/** aggregated.DiscoveryEndpointRestrictions: /api and /apis, for the aggregated document only. */
export const DISCOVERY_ENDPOINT: EndpointRestrictions = {
  allowsMediaTypeTransform: (_type, _subType, target) => isAggregatedDiscovery(target),
  allowsServerVersion: () => false,
}

const isMetaVersion = (t: Conversion) => t.group === 'meta.k8s.io' && (t.version === 'v1' || t.version === 'v1beta1')

/**
 * A resource endpoint's RequestScope: Tables only where the storage converts to them, and only as JSON or YAML;
 * custom resources' StandardSerializers leave protobuf out of untransformed answers.
 */
export function resourceEndpoint(opts: { table: boolean; custom: boolean }): EndpointRestrictions {
  return {
    allowsMediaTypeTransform(type, subType, target) {
      if (target === undefined) return !opts.custom || subType !== 'vnd.kubernetes.protobuf'
      if (!isMetaVersion(target)) return false
      if (target.kind === 'Table')
        return opts.table && type === 'application' && (subType === 'json' || subType === 'yaml')
      return target.kind === 'PartialObjectMetadata' || target.kind === 'PartialObjectMetadataList'
    },
    allowsServerVersion: (version) => version === 'v1',
  }
}

/** acceptMediaTypeOptions: the clause's parameters against the serializer and the endpoint; null skips the clause. */
function acceptOptions(
  params: Record<string, string>,
  accepts: SerializerInfo,
  endpoint: EndpointRestrictions,
): MediaTypeOptions | null {
  const options: MediaTypeOptions = { accepted: accepts, pretty: false, stream: '' }
  for (const [k, v] of Object.entries(params)) {
    if (k === 'as' || k === 'g' || k === 'v') {
      options.convert ??= { kind: '', group: '', version: '' }
      if (k === 'as') options.convert.kind = v
      else if (k === 'g') options.convert.group = v
      else options.convert.version = v
    } else if (k === 'stream') {
      // Every endpoint's AllowsStreamSchema accepts "watch" only.
      if (v !== '' && (!accepts.stream || v !== 'watch')) return null
      options.stream = v
    } else if (k === 'sv') {
      if (v !== '' && !endpoint.allowsServerVersion(v)) return null
    } else if (k === 'pretty') {
      options.pretty = v === '1'
    }
  }
  if (!endpoint.allowsMediaTypeTransform(accepts.type, accepts.subType, options.convert)) return null
  return options
}

/**
 * NegotiateMediaTypeOptions: no Accept header takes the first serializer; otherwise the first clause (in goautoneg's
 * order; q=0 is not a refusal there) that names a serializer, exactly or by `*`, with parameters the endpoint allows.
 */
export function negotiateMediaType(
  header: string,
  endpoint: EndpointRestrictions,
  accepted: readonly SerializerInfo[] = SERIALIZERS,
): MediaTypeOptions | null {
  if (header === '') return { accepted: accepted[0]!, pretty: false, stream: '' }
  for (const clause of parseAccept(header)) {
    for (const info of accepted) {
      const matches =
        (clause.type === info.type && (clause.subType === info.subType || clause.subType === '*')) ||
        (clause.type === '*' && clause.subType === '*')
      if (!matches) continue
      const options = acceptOptions(clause.params, info, endpoint)
      if (options) return options
    }
  }
  return null
}

/** NegotiateOutputMediaType: the options, or kube's 406 naming the serializers. */
export function negotiateOutput(header: string, endpoint: EndpointRestrictions): MediaTypeOptions {
  const options = negotiateMediaType(header, endpoint)
  if (!options) throw new StatusError(statuses.notAcceptable(MEDIA_TYPES))
  return options
}

/** NegotiateOutputMediaTypeStream (a watch): a serializer that writes streams, or a 406 naming the stream types. */
export function negotiateOutputStream(header: string, endpoint: EndpointRestrictions): MediaTypeOptions {
  const options = negotiateMediaType(header, endpoint)
  if (!options?.accepted.stream) throw new StatusError(statuses.notAcceptable(STREAM_MEDIA_TYPES))
  return options
}

/**
 * NegotiateInputSerializer: no Content-Type reads as the first serializer (JSON); otherwise Go's mime.ParseMediaType
 * must read it and its type must be one a serializer reads exactly (so text/yaml is not YAML), else kube's 415.
 */
export function negotiateInput(contentType: string): string {
  if (contentType === '') return MEDIA_TYPES[0]!
  const type = parseMediaType(contentType)
  if (type !== null && MEDIA_TYPES.includes(type)) return type
  throw new StatusError(statuses.unsupportedMediaType(MEDIA_TYPES))
}
