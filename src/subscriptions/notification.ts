/**
 * The eth_subscription notification frame, assembled around a result that was serialized once: with many
 * subscribers to one event the expensive JSON.stringify runs once and each frame is a string concatenation.
 */
export function notificationFrame(subscriptionId: string, resultJson: string): string {
  return `{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":"${subscriptionId}","result":${resultJson}}}`
}
