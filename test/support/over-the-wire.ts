/** A leader's flashblock as a follower receives it: through the wire format and the tolerant decoder. */
import type { Flashblock, FlashblockPayload } from '../../src/domain/types.js'
import { decodeFrame } from '../../src/feed/codec.js'
import { decodeFlashblock } from '../../src/feed/decode.js'
import { encodeFlashblock } from '../../src/feed/encode.js'
import { isEndOfBlock } from '../../src/feed/wire.js'

export function overTheWire(fb: Flashblock): FlashblockPayload {
  const message = decodeFrame(JSON.stringify(encodeFlashblock(fb)))
  if (isEndOfBlock(message)) throw new Error('not a payload')
  return decodeFlashblock(message)
}
