// A CustomResourceDefinition as rows of the kind table, one per served version (what kube's crdHandler builds per
// CRD): the accepted names, the scope, every verb, /status and /scale as the version declares them, the generic
// strategy and codec made from the version's schema, its printer columns, its OpenAPI component, and the resource key
// `<plural>.<group>` its objects are stored and watched under, whatever version they are written in.
import type { ResourceDef } from '../resource'
import type { SubresourceDef } from '../resource'
import { internalSpec, schemaOf, subresourcesOf } from '../crd/crd-internal'
import type { ColumnDefinition, Crd } from '../crd/json-schema'
import { tryStructural } from '../crd/structural'
import { customCodec } from './custom-codec'
import { customComponentName, customOpenApi } from './custom-openapi'
import { ruleValidator } from './cel/cel-validator'
import { customStrategy } from './custom-strategy'
import { customZod } from './custom-zod'
import { columnsOrAge } from './printer-columns'

const VERBS: ResourceDef['verbs'] = ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch']

const KUBE_VERSION = /^v(\d+)(?:(alpha|beta)(\d+))?$/

/**
 * version.CompareKubeAwareVersionStrings, highest priority first: GA before beta before alpha, higher numbers
 * first, versions that do not look like kube's last, by name. Discovery lists a group's versions so (its first is
 * the preferred one).
 */
function compareVersions(a: string, b: string): number {
  const rank = (v: string): [number, number, number] => {
    const m = KUBE_VERSION.exec(v)
    if (!m) return [0, 0, 0]
    return [m[2] === undefined ? 3 : m[2] === 'beta' ? 2 : 1, Number(m[1]), Number(m[3] ?? 0)]
  }
  const [x, y] = [rank(a), rank(b)]
  if (x[0] === 0 && y[0] === 0) return a < b ? -1 : a > b ? 1 : 0
  if (x[0] === 0 || y[0] === 0) return x[0] === 0 ? 1 : -1
  // GA before beta before alpha (v10, v2, v1, v11beta2, v10beta3, v3beta1, v12alpha1, ...), then by number.
  if (x[0] !== y[0]) return y[0] - x[0]
  if (x[1] !== y[1]) return y[1] - x[1]
  return y[2] - x[2]
}

/** The columns a version prints (GetColumnsForVersion). */
function columnsOf(crd: Crd, version: string): ColumnDefinition[] {
  const perVersion = crd.spec.versions.some((v) => (v.additionalPrinterColumns?.length ?? 0) > 0)
  const v = crd.spec.versions.find((x) => x.name === version)
  const shared = crd.spec.versions.every(
    (x) =>
      JSON.stringify(x.additionalPrinterColumns ?? []) ===
      JSON.stringify(crd.spec.versions[0]?.additionalPrinterColumns ?? []),
  )
  return columnsOrAge(
    perVersion || !shared ? v?.additionalPrinterColumns : crd.spec.versions[0]?.additionalPrinterColumns,
  )
}

/** The deprecation warning a version's requests carry (kube's default text when the CRD gives none). */
function warningOf(crd: Crd, version: string): string | undefined {
  const v = crd.spec.versions.find((x) => x.name === version)
  if (!v?.deprecated) return undefined
  return (
    v.deprecationWarning ??
    `${crd.spec.group}/${version} ${crd.status?.acceptedNames?.kind ?? crd.spec.names.kind} is deprecated`
  )
}

export function customResourceRows(crd: Crd, storageVersionHash: string): ResourceDef[] {
  const spec = internalSpec(crd.spec)
  const names = crd.status?.acceptedNames ?? crd.spec.names
  const group = crd.spec.group
  const namespaced = crd.spec.scope === 'Namespaced'
  const resource = `${names.plural}.${group}`
  const rows: ResourceDef[] = []
  // Served versions only, the storage version first. Objects are the stored row's whatever version serves them; a
  // storage version that is not served lends that role to the first served one.
  const versions = crd.spec.versions.filter((v) => v.served).sort((a, b) => compareVersions(a.name, b.name))
  const stored = (versions.find((v) => v.storage) ?? versions[0])?.name
  for (const v of versions) {
    const schema = schemaOf(spec, v.name)
    const structural = tryStructural(schema)
    const sub = subresourcesOf(spec, v.name)
    const subresources: SubresourceDef[] = []
    if (sub?.scale)
      subresources.push({
        name: 'scale',
        kind: 'Scale',
        group: 'autoscaling',
        version: 'v1',
        verbs: ['get', 'patch', 'update'],
      })
    if (sub?.status) subresources.push({ name: 'status', kind: names.kind, verbs: ['get', 'patch', 'update'] })
    const selectable = (v.selectableFields ?? spec.selectableFields ?? []).map((f) => f.jsonPath)
    const scale = sub?.scale
    rows.push({
      group,
      version: v.name,
      kind: names.kind,
      listKind: names.listKind ?? `${names.kind}List`,
      plural: names.plural,
      singular: names.singular ?? names.kind.toLowerCase(),
      shortNames: names.shortNames ?? [],
      categories: names.categories ?? [],
      namespaced,
      verbs: [...VERBS],
      schema: customZod(structural),
      strategy: customStrategy({
        storedApiVersion: `${group}/${stored}`,
        namespaced,
        schema,
        structural,
        status: sub?.status !== undefined,
        scale: scale
          ? {
              specReplicasPath: scale.specReplicasPath,
              statusReplicasPath: scale.statusReplicasPath,
              labelSelectorPath: scale.labelSelectorPath,
            }
          : undefined,
        selectableFields: selectable,
        columns: columnsOf(crd, v.name),
        rules: ruleValidator(structural),
      }),
      home: namespaced ? 'namespace' : 'cluster',
      returnDeletedObject: false,
      storageVersionHash,
      subresources,
      resource,
      storage: v.name === stored,
      unstructured: customCodec(structural),
      openapi: { name: customComponentName(group, v.name, names.kind), schema: customOpenApi(schema) },
      scale: scale
        ? {
            specReplicasPath: scale.specReplicasPath,
            statusReplicasPath: scale.statusReplicasPath,
            labelSelectorPath: scale.labelSelectorPath,
          }
        : undefined,
      warning: warningOf(crd, v.name),
    })
  }
  return rows
}
