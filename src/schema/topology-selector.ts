// core/v1 TopologySelectorTerm: the topology labels a StorageClass may provision volumes in (allowedTopologies).
import { z } from 'zod'
import { atomic } from './schema-helpers'

export const TopologySelectorLabelRequirement = z
  .strictObject({
    key: z.string().describe('The label key the selector applies to'),
    values: z.array(z.string()).describe('Values the label may have (any of them)').meta(atomic),
  })
  .describe('A topology label and the values allowed for it')

export const TopologySelectorTerm = z
  .strictObject({
    matchLabelExpressions: z
      .array(TopologySelectorLabelRequirement)
      .optional()
      .describe('Label requirements, all of which must hold')
      .meta(atomic),
  })
  .describe('A topology selector term: the requirements are ANDed')
  .meta({ 'x-kubernetes-map-type': 'atomic' })
