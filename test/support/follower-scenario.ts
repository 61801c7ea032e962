/**
 * For the follower's tests: a mix of every transaction type the chain takes (legacy, EIP-2930 with an
 * access list, EIP-1559, EIP-7702), a deployment, token transfers that log and a mined revert, sent
 * through viem to any node (anvil or our service) so the follower has real blocks to convert; and a
 * plain JSON-RPC helper for the calls viem does not type (anvil_*, evm_*, raw block JSON).
 */
import { createPublicClient, createWalletClient, encodeFunctionData, http, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import artifact from '../fixtures/TestToken.json' with { type: 'json' }

const KEYS = [
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d', // dev account 1
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a', // dev account 2
  '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6', // dev account 3
] as const
const OTHER = '0x90f79bf6eb2c4f870365e785982e1f101e93b906' as const // dev account 3
const chain = {
  id: 196,
  name: 'xlayer',
  nativeCurrency: { name: 'OKB', symbol: 'OKB', decimals: 18 },
  rpcUrls: { default: { http: [] } },
} as const

/** Sends the mix and waits for every receipt; returns the transaction hashes. */
export async function sendScenario(url: string): Promise<Hex[]> {
  const [a, b] = KEYS.map((k) => privateKeyToAccount(k))
  const pub = createPublicClient({ chain, transport: http(url), pollingInterval: 50 })
  const walletA = createWalletClient({ chain, account: a, transport: http(url) })
  const walletB = createWalletClient({ chain, account: b, transport: http(url) })
  const fees = { maxFeePerGas: 5_000_000_000n, maxPriorityFeePerGas: 1_000_000n }
  const wait = (hash: Hex) => pub.waitForTransactionReceipt({ hash })

  const deploy = await wait(
    await walletA.sendTransaction({
      data: `${artifact.TestToken.bytecode + '00'.repeat(31)}0f4240` as Hex,
      gas: 3_000_000n,
      ...fees,
    }),
  )
  const token = deploy.contractAddress!
  const call = (functionName: string, args: unknown[] = []) =>
    encodeFunctionData({ abi: artifact.TestToken.abi, functionName, args } as never) as Hex
  const hashes: Hex[] = [deploy.transactionHash]
  // several per block where the node batches them: nonces by hand so nothing waits in between
  let nonceA = await pub.getTransactionCount({ address: a.address, blockTag: 'pending' })
  let nonceB = await pub.getTransactionCount({ address: b.address, blockTag: 'pending' })
  const authorization = await walletB.signAuthorization({
    contractAddress: token,
    chainId: chain.id,
    nonce: nonceB + 1,
  })
  const sent = await Promise.all([
    walletA.sendTransaction({
      to: token,
      data: call('transfer', [OTHER, 1000n]),
      gas: 100_000n,
      nonce: nonceA++,
      ...fees,
    }),
    walletA.sendTransaction({
      to: OTHER,
      value: 12345n,
      gas: 21_000n,
      gasPrice: 5_000_000_000n,
      type: 'legacy',
      nonce: nonceA++,
    }),
    walletA.sendTransaction({
      to: token,
      data: call('increment'),
      gas: 100_000n,
      gasPrice: 5_000_000_000n,
      type: 'eip2930',
      nonce: nonceA++,
      accessList: [
        { address: token, storageKeys: ['0x0000000000000000000000000000000000000000000000000000000000000001'] },
      ],
    }),
    walletA.sendTransaction({
      to: token,
      data: call('transfer', [OTHER, 10n ** 30n]),
      gas: 100_000n,
      nonce: nonceA++,
      ...fees,
    }), // reverts, mined
    walletA.sendTransaction({ to: token, data: call('spawn'), gas: 1_000_000n, nonce: nonceA++, ...fees }),
    walletB.sendTransaction({
      to: OTHER,
      data: '0x',
      gas: 100_000n,
      authorizationList: [authorization],
      nonce: nonceB++,
      ...fees,
    }),
  ])
  for (const hash of sent) await wait(hash)
  return [...hashes, ...sent]
}
