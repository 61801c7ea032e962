/**
 * Turns a checked OpenRPC method object into the model the emitters read: OpenRPC defaults applied
 * (`required` false, the x- flags false, served on the general endpoint), x- fields given plain names.
 */
import { endpointsOf, isSchema, type ExampleModel, type MethodModel, type Schema } from './model.js'

function text(value: unknown): string {
  return typeof value === 'string' ? value : ''
}

function examplesOf(value: unknown): ExampleModel[] {
  if (!Array.isArray(value)) return []
  return value.filter(isSchema).map((example) => {
    const params = Array.isArray(example.params) ? example.params.filter(isSchema) : []
    const model: ExampleModel = {
      name: text(example.name),
      params: params.map((param) => ({ name: text(param.name), value: param.value })),
      reproducible: example['x-reproducible'] === true,
    }
    if (example['x-endpoint'] === 'flashblocks' || example['x-endpoint'] === 'general')
      model.endpoint = example['x-endpoint']
    if (typeof example['x-setup'] === 'string') model.setup = example['x-setup']
    if (typeof example['x-error-code'] === 'number') model.errorCode = example['x-error-code']
    if (isSchema(example.result)) model.result = { name: text(example.result.name), value: example.result.value }
    return model
  })
}

export function toMethodModel(method: { name: string } & Record<string, unknown>, file: string): MethodModel {
  const params = Array.isArray(method.params) ? method.params.filter(isSchema) : []
  const result = isSchema(method.result) ? method.result : {}
  const model: MethodModel = {
    name: method.name,
    file,
    summary: text(method.summary),
    description: text(method.description),
    params: params.map((param) => {
      const descriptor = { name: text(param.name), required: param.required === true, schema: param.schema as Schema }
      return typeof param.description === 'string' ? { ...descriptor, description: param.description } : descriptor
    }),
    result: { name: text(result.name), schema: (result.schema ?? {}) as Schema },
    endpoints: endpointsOf(method),
    pending: method['x-pending'] === true,
    extension: method['x-extension'] === true,
    websocketOnly: method['x-websocket-only'] === true,
    devNode: method['x-dev-node'] === true,
    examples: examplesOf(method.examples),
  }
  if (typeof method['x-alias-of'] === 'string') model.aliasOf = method['x-alias-of']
  return model
}
