// kube-openapi's validation result (k8s.io/kube-openapi pkg/validation/validate result.go, errors.Validation): the
// problems found at each path, how many schemas matched, and the message wording every validator shares.
/** One kube-openapi validation error (errors.Validation): its code, the path it names and the values it carries. */
export interface Problem {
  code: 'type' | 'required' | 'tooLong' | 'enum' | 'maxItems' | 'tooManyProperties' | 'other'
  name: string
  message: string
  value?: unknown
  valid?: number
  values?: unknown[]
}

/** kube-openapi's validate.Result: the errors found, and how many schemas matched (to pick the best alternative). */
export class Result {
  errors: Problem[] = []
  matchCount = 0
  get valid() {
    return this.errors.length === 0
  }
  add(p: Problem) {
    this.errors.push(p)
  }
  merge(...others: (Result | null)[]) {
    for (const o of others) {
      if (!o) continue
      this.errors.push(...o.errors)
      this.matchCount += o.matchCount
    }
    return this
  }
}

/** Where the value sits, as kube-openapi names it in every message. */
export const IN = 'body'
/** A type error's message (a string value is quoted in it). */
export const typeMessage = (name: string, type: string, value: unknown) =>
  typeof value === 'string'
    ? `${name} in ${IN} must be of type ${type}: ${JSON.stringify(value)}`
    : `${name} in ${IN} must be of type ${type}`
