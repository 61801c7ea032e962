/**
 * The HTTP refusals of a JSON-RPC POST: still a -32600 body a JSON-RPC library can read, with the HTTP status
 * that says what was wrong with the request itself (geth answers 415 and 413 the same way).
 */
import { InvalidRequestError } from './rpc-error.js'

/** -32600 with HTTP 415: the body is not declared JSON; geth's text. */
export class UnsupportedContentTypeError extends InvalidRequestError {
  static override readonly httpStatus = 415
  constructor() {
    super('invalid content type, only application/json is supported')
  }
}

/** -32600 with HTTP 413: the body is longer than the limit (MAX_BODY_BYTES). */
export class BodyTooLargeError extends InvalidRequestError {
  static override readonly httpStatus = 413
  constructor(limit: number) {
    super(`request body too large: the limit is ${limit} bytes`)
  }
}
