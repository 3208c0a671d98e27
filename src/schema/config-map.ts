// core/v1 ConfigMap: configuration data for pods, as text (data) and bytes (binaryData, base64 on the wire).
import { z } from 'zod'
import { ObjectMeta, StringMap } from './meta'

export const ConfigMap = z
  .strictObject({
    kind: z.string().optional().describe('Kind of this object: ConfigMap'),
    apiVersion: z.string().optional().describe('Schema version of this object: v1'),
    metadata: ObjectMeta.optional().describe('Standard object metadata'),
    immutable: z
      .boolean()
      .optional()
      .describe('When true, data and binaryData can no longer change (only metadata); the object can still be deleted'),
    data: StringMap.optional().describe("Text configuration; keys of alphanumerics, '-', '_' or '.'"),
    // map[string][]byte: Go reads and writes each value as base64 (go-field-types.ts names the Go type).
    binaryData: z
      .record(z.string(), z.string().describe('base64-encoded bytes'))
      .optional()
      .describe('Binary configuration, base64 on the wire; keys must not repeat those of data'),
  })
  .describe('Holds configuration data for pods to consume')
  .meta({ 'x-kubernetes-group-version-kind': [{ group: '', version: 'v1', kind: 'ConfigMap' }] })

export type ConfigMap = z.infer<typeof ConfigMap>
