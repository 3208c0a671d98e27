// How a custom resource's body is decoded (apiextensions crdHandler's schemaCoercingDecoder and defaulter): JSON
// kept as it is (no Go type), metadata read as a Go ObjectMeta (its unknown fields reported, its type errors a 400),
// then the fields the schema does not declare pruned (reported for fieldValidation) and disallowed nulls dropped.
// Schema defaults are the strategy's (applyDefaults), so they land on whatever a write makes of the body, an apply's
// merge included, as kube's defaulter runs on the patched object.
import { ObjectMeta } from '../../schema/meta'
import { goTypeOf } from '../decoding/go-types'
import { goUnmarshal } from '../decoding/go-unmarshal'
import { RawNumber, unwrapRawNumbers } from '../decoding/go-json-numbers'
import { omitEmptyFields } from '../decoding/go-encoded'
import type { Structural } from '../crd/structural'
import type { UnstructuredCodec } from '../resource'
import { hasDefaults, prune, pruneNulls } from './prune-default'

const OBJECT_META = goTypeOf(ObjectMeta, 'v1.ObjectMeta')

const jsonKind = (v: unknown) =>
  Array.isArray(v) ? 'array' : typeof v === 'boolean' ? 'bool' : typeof v === 'string' ? 'string' : 'number'

/** The codec of one version of a custom resource (structural null: a schema that is not structural keeps all). */
export function customCodec(schema: Structural | null): UnstructuredCodec {
  return {
    defaultsOnRead: hasDefaults(schema ?? undefined),
    decode(doc) {
      const strict: string[] = []
      if (doc.metadata !== undefined && doc.metadata !== null) {
        if (typeof doc.metadata !== 'object' || Array.isArray(doc.metadata) || doc.metadata instanceof RawNumber)
          return { error: `json: cannot unmarshal ${jsonKind(doc.metadata)} into Go value of type v1.ObjectMeta` }
        const meta = doc.metadata as Record<string, unknown>
        const decoded = goUnmarshal(meta, OBJECT_META, false)
        if (decoded.error !== null) return { error: decoded.error }
        for (const s of decoded.strict) strict.push(s.replace(/^unknown field "/, 'unknown field "metadata.'))
        // The coercion writes the metadata back from its ObjectMeta (SetObjectMeta): omitempty's empty fields go.
        omitEmptyFields(meta, OBJECT_META)
      } else delete doc.metadata
      // Numbers whose text mattered to Go's decoder (1.0, big ints) become plain numbers for the schema's checks.
      for (const k of Object.keys(doc)) if (k !== 'metadata') doc[k] = unwrapRawNumbers(doc[k])
      if (schema) {
        for (const path of prune(doc, schema, true)) strict.push(`unknown field "${path}"`)
        pruneNulls(doc, schema)
      }
      return { strict }
    },
  }
}
