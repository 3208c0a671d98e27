// Volume sources backed by the node or by storage systems (host paths, disks, iSCSI, Quobyte, Azure disks, CSI
// drivers): the checks too long for validateVolumeSource's table, after kube-apiserver 1.33 pkg/apis/core/validation.
import { fieldError, type FieldError, type FieldPath } from '../../field-errors'
import { isDNS1123Subdomain } from '../../validation/names'
import { inclusiveRangeError, str } from './pod-validation-formats'
import { validatePathNoBacksteps } from './pod-validation-mounts'
import type { Volume } from './pod-types'

type Source = Omit<Volume, 'name'>

export function requiredAll(path: FieldPath, fields: [string, string | undefined][]): FieldError[] {
  return fields.filter(([, v]) => !v).map(([k]) => fieldError.required(path.child(k).toString()))
}

const HOST_PATH_TYPES = [
  '',
  'BlockDevice',
  'CharDevice',
  'Directory',
  'DirectoryOrCreate',
  'File',
  'FileOrCreate',
  'Socket',
]

export function validateHostPath(hp: NonNullable<Source['hostPath']>, path: FieldPath): FieldError[] {
  if (!hp.path) return [fieldError.required(path.child('path').toString())]
  const errs = validatePathNoBacksteps(hp.path, path.child('path'))
  if (hp.type !== undefined && !HOST_PATH_TYPES.includes(hp.type)) {
    errs.push(fieldError.notSupported(path.child('type').toString(), hp.type, HOST_PATH_TYPES))
  }
  return errs
}

export function validateDisk(
  id: string | undefined,
  idField: string,
  partition: number | undefined,
  path: FieldPath,
): FieldError[] {
  const errs = requiredAll(path, [[idField, id]])
  const part = partition ?? 0
  if (part < 0 || part > 255)
    errs.push(fieldError.invalid(path.child('partition').toString(), part, inclusiveRangeError(1, 255)))
  return errs
}

const IQN = /iqn\.\d{4}-\d{2}\.([a-zA-Z0-9\-.]+)(:[^,;*&$|\s]+)$/
const EUI = /^eui.[a-zA-Z0-9]{16}$/
const NAA = /^naa.[a-zA-Z0-9]{32}$/

function iscsiNameErrors(value: string, path: string, startDetail: string): FieldError[] {
  const errs: FieldError[] = []
  const prefixed = value.startsWith('iqn') || value.startsWith('eui') || value.startsWith('naa')
  if (!prefixed) errs.push(fieldError.invalid(path, value, startDetail))
  // Go's iqn regex is anchored only at the end, so it may match past the prefix.
  if (value.startsWith('iqn') && !IQN.test(value)) errs.push(fieldError.invalid(path, value, 'must be valid format'))
  else if (value.startsWith('eui') && !EUI.test(value))
    errs.push(fieldError.invalid(path, value, 'must be valid format'))
  else if (value.startsWith('naa') && !NAA.test(value))
    errs.push(fieldError.invalid(path, value, 'must be valid format'))
  return errs
}

export function validateISCSI(
  iscsi: NonNullable<Source['iscsi']>,
  path: FieldPath,
  volName: string,
  volPath: FieldPath,
): FieldError[] {
  const errs: FieldError[] = []
  if (!iscsi.targetPortal) errs.push(fieldError.required(path.child('targetPortal').toString()))
  if (!iscsi.iqn) errs.push(fieldError.required(path.child('iqn').toString()))
  else
    errs.push(
      ...iscsiNameErrors(
        iscsi.iqn,
        path.child('iqn').toString(),
        'must be valid format starting with iqn, eui, or naa',
      ),
    )
  if (iscsi.lun < 0 || iscsi.lun > 255)
    errs.push(fieldError.invalid(path.child('lun').toString(), iscsi.lun, inclusiveRangeError(0, 255)))
  if ((iscsi.chapAuthDiscovery || iscsi.chapAuthSession) && !iscsi.secretRef)
    errs.push(fieldError.required(path.child('secretRef').toString()))
  if (iscsi.initiatorName !== undefined) {
    errs.push(
      ...iscsiNameErrors(
        iscsi.initiatorName,
        path.child('initiatorname').toString(),
        'must be valid format starting with iqn, eui, or naa',
      ),
    )
  }
  if (iscsi.initiatorName !== undefined && `${volName}:${str(iscsi.targetPortal)}`.length > 64) {
    const detail =
      'Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.'
    errs.push(fieldError.invalid(volPath.child('name').toString(), volName, detail))
  }
  return errs
}

export function validateQuobyte(q: NonNullable<Source['quobyte']>, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const detail = 'must be a host:port pair or multiple pairs separated by commas'
  if (!q.registry) errs.push(fieldError.required(path.child('registry').toString(), detail))
  else if (str(q.tenant).length >= 65) {
    errs.push(
      fieldError.required(
        path.child('tenant').toString(),
        'must be a UUID and may not exceed a length of 64 characters',
      ),
    )
  } else {
    for (const pair of q.registry.split(',')) {
      if (!/^(\[[^\]]*\]|[^:[\]]*):[^:]*$/.test(pair))
        errs.push(fieldError.invalid(path.child('registry').toString(), q.registry, detail))
    }
  }
  if (!q.volume) errs.push(fieldError.required(path.child('volume').toString()))
  return errs
}

const CACHING_MODES = ['None', 'ReadOnly', 'ReadWrite']
const DISK_KINDS = ['Dedicated', 'Managed', 'Shared']

export function validateAzureDisk(d: NonNullable<Source['azureDisk']>, path: FieldPath): FieldError[] {
  const errs = requiredAll(path, [
    ['diskName', d.diskName],
    ['diskURI', d.diskURI],
  ])
  if (d.cachingMode !== undefined && !CACHING_MODES.includes(d.cachingMode)) {
    errs.push(fieldError.notSupported(path.child('cachingMode').toString(), d.cachingMode, CACHING_MODES))
  }
  if (d.kind !== undefined && !DISK_KINDS.includes(d.kind))
    errs.push(fieldError.notSupported(path.child('kind').toString(), d.kind, DISK_KINDS))
  const uri = str(d.diskURI)
  if (d.kind === 'Managed' && !uri.startsWith('/subscriptions/')) {
    errs.push(
      fieldError.notSupported(path.child('diskURI').toString(), uri, [
        '/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}',
      ]),
    )
  }
  if (d.kind !== undefined && d.kind !== 'Managed' && !uri.startsWith('https://')) {
    errs.push(
      fieldError.notSupported(path.child('diskURI').toString(), uri, [
        'https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd',
      ]),
    )
  }
  return errs
}

/** ValidateCSIDriverName. */
export function validateCSIDriverName(driver: string, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  if (driver.length === 0) errs.push(fieldError.required(path.toString()))
  if (driver.length > 63) errs.push(fieldError.tooLong(path.toString(), 63))
  errs.push(...isDNS1123Subdomain(driver.toLowerCase()).map((m) => fieldError.invalid(path.toString(), driver, m)))
  return errs
}
