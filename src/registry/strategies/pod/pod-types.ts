// The pod object shape the pod strategy works on: the zod-inferred Pod with metadata made present.
import type { ObjectMeta } from '../../../schema/meta'
import type { Pod } from '../../../schema/pod'

/** A decoded, null-stripped Pod as the store hands it to the strategy: metadata is always there. */
export type PodObject = Omit<Pod, 'metadata'> & { metadata: ObjectMeta }
