// The runtime cost of a CEL program, metered as cel-go's cost tracker meters it for kube (cel-go
// interpreter/runtimecost.go with kube's library CostEstimator, k8s.io/apiserver pkg/cel/library/cost.go), so a rule
// is stopped at kube's per-call limit and a write's rules at kube's budget, with kube's errors.
//
// @bufbuild/cel has no cost tracking, so the meter rides on what its planner lets us reach:
//   - every function call goes through the environment's function resolver: the resolver here wraps each group and
//     charges the call's cost from its actual arguments (cel-go's and kube's per-function formulas: string traversal
//     at 0.1 per character, regexes at string × pattern/4, list functions per element, `in` per element, ...);
//   - identifiers, field selections, index operations and list/map literals are charged from the AST (1 each, 10
//     and 30 for literals, nothing for constants, type names and literals made of constants, which cel-go folds):
//     once per evaluation for the expression's top level, and per evaluation of each region that may run any
//     number of times or not at all — a comprehension's loop condition and step, a conditional's branches, the
//     right operands of `&&` and `||` — through a call to an internal function inserted around that region, which
//     charges the region's static cost when it runs.
// What this approximates: a loop that stops early charges one extra step's selections; a conditional's branch
// that is an attribute (cel-go resolves it inside the conditional) is charged all but its variable lookup; string
// sizes are UTF-16 units where cel-go counts code points. On kube's own cost-stability cases the totals agree exactly
// or within a few units (test/registry/custom/cel-cost.test.ts).
import { celEnv, type CelEnv, celError, type CelFunc, type parse, plan } from '@bufbuild/cel'
import { callCost } from './cel-call-cost'

type Parsed = ReturnType<typeof parse>
type Expr = Parsed['expr'] & {}

/** kube's PerCallLimit: the cost one evaluation of a rule may reach (k8s.io/apiserver pkg/apis/cel/config.go). */
export const PER_CALL_LIMIT = 1_000_000
/** kube's RuntimeCELCostBudget: the cost all rules of one custom resource validation may reach together. */
export const RUNTIME_CEL_COST_BUDGET = 10_000_000
/** cel-go's EvalCancelledError text when a program passes its cost limit. */
export const COST_LIMIT_EXCEEDED = 'operation cancelled: actual cost limit exceeded'

const LIST_CREATE = 10 // common.ListCreateBaseCost
const MAP_CREATE = 30 // common.MapCreateBaseCost
const STRUCT_CREATE = 40 // common.StructCreateBaseCost

interface Meter {
  cost: number
  limit: number
  exceeded: boolean
  /** Calls cel-go evaluates when planning (conversions of constants): they cost nothing. */
  free: ReadonlySet<number>
}

let meter: Meter | null = null

/** Adds `cost` to the running meter; the error to return once the meter is past its limit. */
function charge(m: Meter, cost: number, id: number) {
  m.cost += cost
  if (m.cost > m.limit) m.exceeded = true
  return m.exceeded ? celError(COST_LIMIT_EXCEEDED, id) : undefined
}

type FuncGroup = NonNullable<ReturnType<CelEnv['funcs']['find']>>

/** The internal function that charges a region's static cost when the region runs (it answers its first argument). */
const TICK = '@kubeflare_cost'

const tickGroup = {
  name: TICK,
  *[Symbol.iterator]() {},
  call(id: number, _target: unknown, args: unknown[]) {
    const m = meter
    if (m) {
      const stop = charge(m, Number(args[1]), id)
      if (stop) return stop
    }
    return args[0]
  },
} as unknown as FuncGroup

function metered(group: FuncGroup): FuncGroup {
  return {
    name: group.name,
    [Symbol.iterator]: () => group[Symbol.iterator](),
    call(id, target, args) {
      const m = meter
      if (!m) return group.call(id, target, args)
      if (m.exceeded) return celError(COST_LIMIT_EXCEEDED, id)
      const result = group.call(id, target, args)
      if (!m.free.has(id)) {
        const stop = charge(m, callCost(group.name, target === undefined ? args : [target, ...args], result), id)
        if (stop) return stop
      }
      return result
    },
  } as FuncGroup
}

/** An environment whose function calls are metered (its planner is cached by @bufbuild/cel per environment). */
export function meteredEnv(funcs: CelFunc[]): CelEnv {
  const base = celEnv({ funcs })
  const groups = new Map<string, FuncGroup | undefined>()
  const resolver = {
    [Symbol.iterator]: () => base.funcs[Symbol.iterator](),
    find(name: string) {
      if (name === TICK) return tickGroup
      if (!groups.has(name)) {
        const g = base.funcs.find(name)
        groups.set(name, g && metered(g))
      }
      return groups.get(name)
    },
  }
  return { namespace: base.namespace, registry: base.registry, variables: base.variables, funcs: resolver } as CelEnv
}

const TYPE_NAMES = new Set(['int', 'uint', 'double', 'string', 'bool', 'bytes', 'list', 'map', 'null_type', 'type'])
const CONVERSIONS = new Set(['int', 'uint', 'double', 'string', 'bytes', 'bool', 'duration', 'timestamp', 'dyn'])
/** Calls the planner evaluates itself rather than through the resolver: charged from the AST. */
const PLANNED = new Set(['_[_]', '_[?_]', '_?._', '@not_strictly_false', 'not_strictly_false'])

let nextId = 1n << 40n

/** `e` wrapped in a call of the tick function that charges `cost`. */
function tick(e: Expr, cost: number): Expr {
  const id = nextId++
  return {
    ...e,
    id,
    exprKind: {
      case: 'callExpr',
      value: {
        $typeName: 'cel.expr.Expr.Call',
        function: TICK,
        args: [e, { ...e, id: nextId++, exprKind: { case: 'constExpr', value: constant(cost) } }],
      },
    },
  } as unknown as Expr
}

const constant = (n: number) => ({
  $typeName: 'cel.expr.Constant',
  constantKind: { case: 'int64Value', value: BigInt(n) },
})

/** An identifier, or fields selected from one. */
function isAttribute(e: Expr): boolean {
  const k = e.exprKind
  if (k.case === 'identExpr') return true
  return k.case === 'selectExpr' && !k.value.testOnly && !!k.value.operand && isAttribute(k.value.operand)
}

interface Instrumented {
  /** The cost of one evaluation's top level (regions that run repeatedly are charged where they run). */
  staticCost: number
  free: Set<number>
}

/**
 * Rewrites `parsed` in place so that its repeated regions charge their cost as they run; answers the static cost
 * of the rest. Returns for each node [its static cost, whether cel-go folds it to a constant].
 */
function instrument(parsed: Parsed): Instrumented {
  const free = new Set<number>()
  /** `e` as a region: charged when it runs (less `discount`). */
  const region = (e: Expr, discount = 0): Expr => {
    const cost = visit(e)[0] - discount
    return cost > 0 ? tick(e, cost) : e
  }
  const visit = (e: Expr): [number, boolean] => {
    const k = e.exprKind
    switch (k.case) {
      case 'constExpr':
        return [0, true]
      case 'identExpr':
        return TYPE_NAMES.has(k.value.name) ? [0, true] : [1, false]
      case 'selectExpr':
        // has(x.f) costs what x costs: the presence test itself is free in cel-go's accounting.
        return [(k.value.testOnly ? 0 : 1) + (k.value.operand ? visit(k.value.operand)[0] : 0), false]
      case 'callExpr': {
        const c = k.value
        if (c.function === '_?_:_' && c.args.length === 3) {
          const [cond] = visit(c.args[0]!)
          // cel-go plans a conditional as one attribute: a branch that is itself an attribute (x, x.f.g) is
          // resolved inside it, its variable lookup unobserved.
          c.args[1] = region(c.args[1]!, isAttribute(c.args[1]!) ? 1 : 0)
          c.args[2] = region(c.args[2]!, isAttribute(c.args[2]!) ? 1 : 0)
          return [cond, false]
        }
        if ((c.function === '_&&_' || c.function === '_||_') && c.args.length > 1) {
          // The right operands run only when the left ones do not decide.
          for (let i = 1; i < c.args.length; i++) c.args[i] = region(c.args[i]!)
          return [visit(c.args[0]!)[0], false]
        }
        let cost = 0
        let constant = true
        for (const a of [...(c.target ? [c.target] : []), ...c.args]) {
          const [ac, folded] = visit(a)
          cost += ac
          constant &&= folded
        }
        if (PLANNED.has(c.function)) return [cost + 1, false]
        // cel-go evaluates conversions of constants when it plans the program.
        if (constant && !c.target && CONVERSIONS.has(c.function)) {
          free.add(Number(e.id))
          return [0, true]
        }
        return [cost, false]
      }
      case 'listExpr': {
        let cost = 0
        let constant = true
        for (const x of k.value.elements) {
          const [xc, folded] = visit(x)
          cost += xc
          constant &&= folded
        }
        return constant ? [0, true] : [cost + LIST_CREATE, false]
      }
      case 'structExpr': {
        let cost = 0
        let constant = k.value.messageName === ''
        for (const entry of k.value.entries) {
          for (const x of [entry.keyKind.case === 'mapKey' ? entry.keyKind.value : undefined, entry.value]) {
            if (!x) continue
            const [xc, folded] = visit(x)
            cost += xc
            constant &&= folded
          }
        }
        return constant ? [0, true] : [cost + (k.value.messageName ? STRUCT_CREATE : MAP_CREATE), false]
      }
      case 'comprehensionExpr': {
        const c = k.value
        let cost = 0
        for (const x of [c.iterRange, c.accuInit, c.result]) if (x) cost += visit(x)[0]
        // One charge per iteration, in the loop condition (which runs first), for the condition and the step.
        const step = c.loopStep ? visit(c.loopStep)[0] : 0
        const cond = c.loopCondition ? visit(c.loopCondition)[0] : 0
        if (c.loopCondition && cond + step > 0) c.loopCondition = tick(c.loopCondition, cond + step)
        return [cost, false]
      }
      default:
        return [0, false]
    }
  }
  const [staticCost] = parsed.expr ? visit(parsed.expr) : [0]
  return { staticCost, free }
}

/** A planned program that is metered when it runs. */
export interface MeteredProgram {
  run(vars: Record<string, unknown>, limit: number): { value: unknown; cost: number; exceeded: boolean }
}

/** Plans `parsed` (which it rewrites) in a metered environment. */
export function planMetered(env: CelEnv, parsed: Parsed): MeteredProgram {
  const { staticCost, free } = instrument(parsed)
  const program = plan(env, parsed) as unknown as (vars: Record<string, unknown>) => unknown
  return {
    run(vars, limit) {
      const m: Meter = { cost: staticCost, limit, exceeded: staticCost > limit, free }
      const outer = meter
      meter = m
      let value: unknown
      try {
        if (!m.exceeded) value = program(vars)
      } finally {
        meter = outer
      }
      return { value, cost: m.cost, exceeded: m.exceeded }
    },
  }
}
