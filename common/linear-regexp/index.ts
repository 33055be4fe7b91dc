export {
  InputTooLongError,
  LINEAR_REGEXP_LIMITS,
  LinearRegExp,
  linearRegExpEngine,
  patternRefusal,
  PatternTooCostlyError,
  withPatternWorkBudget,
} from './linear-regexp'
export { MAX_REPEAT_COUNT, UnsupportedPatternError } from './pattern-parser'
