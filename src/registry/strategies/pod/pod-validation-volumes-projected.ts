// Projected volumes (validateProjectedVolumeSource), after kube-apiserver 1.33 pkg/apis/core/validation.
import { fieldError, type FieldError, type FieldPath } from '../../field-errors'
import { goQuote } from '../../go-strings'
import { goLabelSelector, goPtr, goStruct, invalidGo, list, str, validateLabelSelector } from './pod-validation-formats'
import { validateLocalNonReservedPath } from './pod-validation-mounts'
import { validateDownwardAPIVolumeFile, validateKeyToPath, validateMode } from './pod-validation-volumes-files'
import type { ProjectedVolumeSource } from './pod-types'

/** validateProjectedVolumeSource: each source holds exactly one projection; file paths do not collide. */
export function validateProjected(projection: ProjectedVolumeSource, path: FieldPath): FieldError[] {
  const errs = validateMode(projection.defaultMode, path.child('defaultMode'))
  const paths = new Set<string>()
  const claim = (p: string, value: unknown) => {
    if (paths.has(p)) errs.push(fieldError.invalid(path.toString(), value, 'conflicting duplicate paths'))
    else paths.add(p)
  }
  list(projection.sources).forEach((source, i) => {
    const sp = path.child('sources').index(i)
    let n = 0
    for (const key of ['secret', 'configMap'] as const) {
      const src = source[key]
      if (!src) continue
      n++
      const kp = sp.child(key)
      if (!src.name) errs.push(fieldError.required(kp.child('name').toString()))
      list(src.items).forEach((item, j) => {
        errs.push(...validateKeyToPath(item, kp.child('items').index(j)))
        if (item.path) claim(item.path, str(src.name))
      })
    }
    if (source.downwardAPI) {
      n++
      for (const file of list(source.downwardAPI.items)) {
        errs.push(...validateDownwardAPIVolumeFile(file, sp.child('downwardAPI')))
        if (file.path) claim(file.path, file.path)
      }
    }
    const token = source.serviceAccountToken
    if (token) {
      n++
      const tp = sp.child('serviceAccountToken')
      const seconds = token.expirationSeconds ?? 0
      if (seconds < 600)
        errs.push(
          fieldError.invalid(
            tp.child('expirationSeconds').toString(),
            seconds,
            'may not specify a duration less than 10 minutes',
          ),
        )
      if (seconds > 2 ** 32)
        errs.push(
          fieldError.invalid(
            tp.child('expirationSeconds').toString(),
            seconds,
            'may not specify a duration larger than 2^32 seconds',
          ),
        )
      // Reported on the projected source's path, not the token's, as kube does.
      if (!token.path) errs.push(fieldError.required(path.child('path').toString()))
      else errs.push(...validateLocalNonReservedPath(token.path, path.child('path')))
    }
    const ctb = source.clusterTrustBundle
    if (ctb) {
      n++
      const cp = sp.child('clusterTrustBundle')
      const usingName = ctb.name !== undefined
      const usingSigner = ctb.signerName !== undefined
      if (usingName && usingSigner) {
        errs.push(
          invalidGo(
            cp.toString(),
            goStruct('core.ClusterTrustBundleProjection', [
              ['Name', goPtr('*string', ctb.name)],
              ['SignerName', goPtr('*string', ctb.signerName)],
              ['LabelSelector', goPtr('*v1.LabelSelector', ctb.labelSelector)],
              ['Path', goQuote(str(ctb.path))],
              ['Optional', goPtr('*bool', ctb.optional)],
            ]),
            'only one of name and signerName may be used',
          ),
        )
      } else if (usingName) {
        if (ctb.name === '') errs.push(fieldError.required(cp.child('name').toString(), 'must be a valid object name'))
        if (ctb.labelSelector) {
          errs.push(
            invalidGo(
              cp.child('labelSelector').toString(),
              goLabelSelector(ctb.labelSelector),
              'labelSelector must be unset if name is specified',
            ),
          )
        }
      } else if (usingSigner) {
        if (ctb.signerName === '')
          errs.push(fieldError.required(cp.child('signerName').toString(), 'must be a valid signer name'))
        errs.push(...validateLabelSelector(ctb.labelSelector, cp.child('labelSelector')))
      } else {
        errs.push(fieldError.required(cp.toString(), 'either name or signerName must be specified'))
      }
      const ctbPath = str(ctb.path)
      if (!ctbPath) errs.push(fieldError.required(cp.child('path').toString()))
      errs.push(...validateLocalNonReservedPath(ctbPath, cp.child('path')))
      claim(ctbPath, ctbPath)
    }
    if (source.podCertificate) n++
    if (n > 1) errs.push(fieldError.forbidden(sp.toString(), 'may not specify more than 1 volume type per source'))
  })
  return errs
}
