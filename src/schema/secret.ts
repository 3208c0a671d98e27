// core/v1 Secret: sensitive data (base64 bytes on the wire), with a type saying which keys it must hold. stringData is
// write-only: the server merges it into data and never stores it (kube's conversion does this).
import { z } from 'zod'
import { ObjectMeta, StringMap } from './meta'

export const Secret = z
  .strictObject({
    kind: z.string().optional().describe('Kind of this object: Secret'),
    apiVersion: z.string().optional().describe('Schema version of this object: v1'),
    metadata: ObjectMeta.optional().describe('Standard object metadata'),
    immutable: z
      .boolean()
      .optional()
      .describe('When true, data can no longer change (only metadata); the object can still be deleted'),
    // map[string][]byte: Go reads and writes each value as base64 (go-field-types.ts names the Go type).
    data: z
      .record(z.string(), z.string().describe('base64-encoded bytes'))
      .optional()
      .describe("The secret data, base64 on the wire; keys of alphanumerics, '-', '_' or '.'"),
    stringData: StringMap.optional().describe(
      'Write-only convenience: plain-text values merged into data on write (overriding it), never read back',
    ),
    type: z.string().optional().describe('Which keys the secret must hold (Opaque when empty)'),
  })
  .describe('Holds secret data of a certain type; at most 1 MiB of data')
  .meta({ 'x-kubernetes-group-version-kind': [{ group: '', version: 'v1', kind: 'Secret' }] })

export type Secret = z.infer<typeof Secret>
