// The pod object shape the pod strategy works on: the zod-inferred Pod with metadata made present.
import type { KubeObject } from '../../../schema/meta'

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- replaced by the schema's inferred type
export type PodObject = KubeObject & { spec?: any; status?: any }
