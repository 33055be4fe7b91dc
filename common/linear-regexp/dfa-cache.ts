import type { NfaStepper } from './nfa-stepper'

/**
 * A set of alive instructions met before, with the steps already taken from it, by the character's class (which of
 * the pattern's predicates accept it) and the context after it.
 */
export interface DfaState {
  readonly pcs: Int32Array
  readonly matched: boolean
  readonly transitions: Map<string, DfaState>
}

/** Code points whose class is remembered outside ASCII; emptied when full. */
const CLASS_MEMO_LIMIT = 4096

/** What one pattern's cache may hold; past it the cache is emptied and built again (RE2's lazy DFA does the same). */
export interface DfaBudget {
  /** Instruction numbers stored over all states (4 bytes each). */
  readonly storedPcs: number
  readonly transitions: number
}

/**
 * A lazily built DFA over the stepper: each set of alive instructions becomes a state the first time it is met,
 * and each step from it is remembered, so a repeated step costs one map lookup instead of a pass over the set.
 * The answers are the stepper's; only their cost changes.
 */
export class DfaCache {
  /** How often the budget ran out since the cache was made: the caller stops using it when this keeps growing. */
  public resets = 0
  /** States by a hash of their sorted set; a bucket holds the few whose hashes collide. */
  private readonly states = new Map<number, DfaState[]>()
  private readonly starts = new Map<number, DfaState>()
  private storedPcs = 0
  private transitionCount = 0
  private readonly scratch: Int32Array
  private readonly asciiClasses: (string | undefined)[] = []
  private readonly otherClasses = new Map<number, string>()

  public constructor(
    private readonly stepper: NfaStepper,
    private readonly budget: DfaBudget,
  ) {
    this.scratch = new Int32Array(stepper.program.ops.length)
  }

  public start(context: number): DfaState {
    let state = this.starts.get(context)
    if (!state) {
      state = this.intern(this.stepper.start(context, this.scratch))
      this.starts.set(context, state)
    }
    return state
  }

  public next(state: DfaState, codePoint: number, context: number): DfaState {
    const key = `${this.classOf(codePoint)}:${context}`
    let target = state.transitions.get(key)
    if (target) return target
    target = this.intern(this.stepper.step(state.pcs, state.pcs.length, codePoint, context, this.scratch))
    if (this.transitionCount >= this.budget.transitions) this.reset()
    state.transitions.set(key, target)
    this.transitionCount++
    return target
  }

  /** Which predicates accept the code point, as a string of 0s and 1s: characters of one class step alike. */
  private classOf(codePoint: number): string {
    let known = codePoint < 128 ? this.asciiClasses[codePoint] : this.otherClasses.get(codePoint)
    if (known === undefined) {
      known = this.stepper.program.distinctPredicates.map((test) => (test(codePoint) ? '1' : '0')).join('')
      if (codePoint < 128) this.asciiClasses[codePoint] = known
      else {
        if (this.otherClasses.size >= CLASS_MEMO_LIMIT) this.otherClasses.clear()
        this.otherClasses.set(codePoint, known)
      }
    }
    return known
  }

  private intern(count: number): DfaState {
    const matched = this.stepper.matched
    const pcs = matched ? new Int32Array(0) : this.scratch.slice(0, count).sort()
    const key = matched ? -1 : hashOf(pcs)
    const bucket = this.states.get(key)
    const known = bucket?.find((state) => state.matched === matched && sameSet(state.pcs, pcs))
    if (known) return known
    if (this.storedPcs + pcs.length > this.budget.storedPcs) this.reset()
    const state: DfaState = { pcs, matched, transitions: new Map() }
    const current = this.states.get(key)
    if (current) current.push(state)
    else this.states.set(key, [state])
    this.storedPcs += pcs.length
    return state
  }

  private reset(): void {
    for (const bucket of this.states.values()) for (const state of bucket) state.transitions.clear()
    this.states.clear()
    this.starts.clear()
    this.storedPcs = 0
    this.transitionCount = 0
    this.resets++
  }
}

/** FNV-1a over the instruction numbers. */
function hashOf(pcs: Int32Array): number {
  let hash = 0x811c9dc5
  for (const pc of pcs) hash = Math.imul(hash ^ pc, 0x01000193)
  return hash >>> 0
}

function sameSet(left: Int32Array, right: Int32Array): boolean {
  if (left.length !== right.length) return false
  for (let index = 0; index < left.length; index++) if (left[index] !== right[index]) return false
  return true
}
