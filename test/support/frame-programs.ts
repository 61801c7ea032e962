/**
 * Raw EVM programs that exercise what an interpreted outermost frame writes (src/evm/patches/interpreted-frames.ts),
 * as runtime code (hex, no 0x), and results made plain data for a deep comparison of two runs.
 */

/** With 64 bytes of calldata, slot word 0 := word 1 and LOG1(topic word 0, data word 1); else returns slot word 0. */
export const KV = '366040146010575f35545f5260205ff35b6020355f35556020355f525f3560205fa100'
/** Slot word 0 := word 1, then REVERT. */
export const KV_REVERT = '6020355f35555f5ffd'
/** JUMPDEST, PUSH1 0, JUMP: runs until its gas is gone. */
export const LOOP = '5b600056'
/** CALLs (no value, all gas) the address in word 0 with the rest of the calldata; returns success, then the output. */
export const CALLER = '5f5f36602090038060205f375f5f5f355af15f523d5f60203e3d6020015ff3'
/** The same through DELEGATECALL: the callee's writes land in this account's storage. */
export const DELEGATOR = '5f5f36602090038060205f375f5f355af45f523d5f60203e3d6020015ff3'
/** CALLs the address in word 0 (no input, all gas), then REVERTs. */
export const CALL_THEN_REVERT = '5f5f5f5f5f5f355af15f5ffd'
/** Slot 0 += 1, then CREATE: the interpreter hands the frame back at CREATE, after its SSTORE. */
export const COUNT_THEN_CREATE = '5f546001015f555f5f5ff000'
/** CALLs the address in word 0 with 1 wei and no input: the interpreter hands the frame back (a call with value). */
export const VALUE_CALLER = '5f5f5f5f60015f355af100'

/** Bytes as hex, numbers as strings, headers and transactions as their JSON, methods left out. */
export function plain(value: unknown): unknown {
  if (value instanceof Uint8Array) return Buffer.from(value).toString('hex')
  if (typeof value === 'bigint') return value.toString()
  if (Array.isArray(value)) return value.map(plain)
  if (value === null || typeof value !== 'object') return value
  // a header or a transaction as its JSON (their objects hold their Common)
  const json = (value as { toJSON?: () => unknown }).toJSON
  if (typeof json === 'function') return plain(json.call(value))
  const out: Record<string, unknown> = {}
  for (const [key, v] of Object.entries(value)) if (typeof v !== 'function') out[key] = plain(v)
  return out
}
