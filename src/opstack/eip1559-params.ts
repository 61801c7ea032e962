/**
 * The EIP-1559 parameters an OP Stack block carries in its extraData (specs/protocol/holocene/exec-engine.md
 * "Dynamic EIP-1559 Parameters", jovian/exec-engine.md "Minimum Base Fee in Block Header"):
 *   Holocene, version 0 (9 bytes):  0x00 ‖ u32 denominator ‖ u32 elasticity
 *   Jovian,   version 1 (17 bytes): 0x01 ‖ u32 denominator ‖ u32 elasticity ‖ u64 minBaseFee
 * The next block's base fee is computed with the parameters of its parent's extraData.
 */

export interface Eip1559Params {
  denominator: bigint
  elasticity: bigint
  /** Jovian only: the floor of the next base fee. */
  minBaseFee?: bigint
}

const HOLOCENE_LENGTH = 9
const JOVIAN_LENGTH = 17

function putUint(out: Uint8Array, offset: number, bytes: number, value: bigint): void {
  for (let i = bytes - 1, v = value; i >= 0; i--, v >>= 8n) out[offset + i] = Number(v & 0xffn)
}

function readUint(data: Uint8Array, offset: number, bytes: number): bigint {
  let v = 0n
  for (let i = 0; i < bytes; i++) v = (v << 8n) | BigInt(data[offset + i]!)
  return v
}

/** The extraData of a block: version 1 with minBaseFee once Jovian is active, else Holocene's version 0. */
export function encodeExtraData(params: Eip1559Params, jovian: boolean): Uint8Array {
  const out = new Uint8Array(jovian ? JOVIAN_LENGTH : HOLOCENE_LENGTH)
  out[0] = jovian ? 1 : 0
  putUint(out, 1, 4, params.denominator)
  putUint(out, 5, 4, params.elasticity)
  if (jovian) putUint(out, 9, 8, params.minBaseFee ?? 0n)
  return out
}

/**
 * The parameters of a Holocene/Jovian extraData, or a sentence saying why it is not one (the follower's
 * header check). A zero denominator or elasticity is refused, as op-alloy's decode_holocene_extra_data does.
 */
export function decodeExtraData(data: Uint8Array): Eip1559Params | string {
  const version = data[0]
  if (version === 0 && data.length !== HOLOCENE_LENGTH)
    return `extraData of version 0 must be ${HOLOCENE_LENGTH} bytes, got ${data.length}`
  if (version === 1 && data.length !== JOVIAN_LENGTH)
    return `extraData of version 1 must be ${JOVIAN_LENGTH} bytes, got ${data.length}`
  if (version !== 0 && version !== 1)
    return `extraData version ${version ?? '(empty)'} is neither 0 (Holocene) nor 1 (Jovian)`
  const params: Eip1559Params = { denominator: readUint(data, 1, 4), elasticity: readUint(data, 5, 4) }
  if (params.denominator === 0n) return 'extraData carries a zero EIP-1559 denominator'
  if (params.elasticity === 0n) return 'extraData carries a zero EIP-1559 elasticity'
  if (version === 1) params.minBaseFee = readUint(data, 9, 8)
  return params
}

/**
 * What a follower requires of a followed block's extraData, or undefined when it passes: on an X Layer chain
 * (`jovian` known from its schedule) Jovian's form once Jovian is active, else Holocene's; on another chain an
 * extraData that names version 0 or 1 must decode. An empty one is a producer without Holocene (anvil, a
 * plain chain): its next base fee falls back to the chain's own parameters.
 */
export function followedExtraDataProblem(data: Uint8Array, jovian: boolean | undefined): string | undefined {
  if (data.length === 0) return undefined
  if (jovian === undefined) {
    if (data[0]! > 1) return undefined
    const decoded = decodeExtraData(data)
    return typeof decoded === 'string' ? decoded : undefined
  }
  return extraDataProblem(data, jovian)
}

function extraDataProblem(data: Uint8Array, jovian: boolean): string | undefined {
  const decoded = decodeExtraData(data)
  if (typeof decoded === 'string') return decoded
  if (jovian && decoded.minBaseFee === undefined) return 'extraData is Holocene (version 0) in a Jovian block'
  if (!jovian && decoded.minBaseFee !== undefined) return 'extraData is Jovian (version 1) before Jovian'
  return undefined
}
