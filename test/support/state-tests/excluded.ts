/**
 * What the state-test subset leaves out, and why: groups, tests (`group/test`) or families of tests (a
 * pattern) too slow for a CI run, where the harness runs each case through three paths on two shared cores.
 * Measured with the npm run test:state figures (CPU time per case) on the subset before they were cut.
 */
const EXCLUDED: { match: RegExp; reason: string }[] = [
  { match: /^stTimeConsuming$/, reason: 'heavy loops by design (the group is named for it): seconds of CPU per case' },
  {
    match: /^stQuadraticComplexityTest$/,
    reason: 'calls of quadratic cost by design, hundreds of millions of gas per case',
  },
  {
    match: /^VMTests\/(loopExp|loopMul|performanceTester)$/,
    reason: 'vmPerformance: loops of EXP and MUL meant to time an EVM, seconds each',
  },
  {
    match: /^stAttackTest\/(ContractCreationSpam|CrashingTransaction)$/,
    reason: 'attack tests: tens of thousands of creations or calls by design',
  },
  {
    match: /^stBadOpcode\/\w+DiffPlaces$/,
    reason:
      'an opcode in each of ~35 places, one of them a loop to the gas limit: a second or more per test; ' +
      'stBadOpcode/badOpcodes and the opcNN tests keep every opcode in',
  },
  {
    match:
      /_ABCB_RECURSIVE\d?$|RecursiveBomb|1024|Depth102[34]|LoopCallsDepthThenRevert|LoopCallsThenRevert|LoopDelegateCallsDepthThenRevert|ABAcalls/,
    reason:
      'calls recursing to the depth limit (1024 frames) or looping on calls until the gas runs out: a second or ' +
      'more of CPU per case and path; stCallCodes, stStaticCall and stSystemOperationsTest keep their shallow calls',
  },
  {
    match:
      /static_Call50000|static_Return50000|FirstByte_loop$|recursiveCreateReturnValue$|Create2Recursive$|JUMPDEST_Attack/,
    reason: 'tens of thousands of calls, creations or jumps in a loop by design: seconds of CPU per case',
  },
]

export function excludedReason(key: string): string | undefined {
  return EXCLUDED.find((e) => e.match.test(key))?.reason
}
