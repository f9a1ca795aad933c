// The loop both bootstrap-token controllers run: the level-triggered watched loop over token
// Secrets (and whatever else the controller watches), plus one timer at the next token expiry,
// as kube's tokencleaner requeues a Secret after its time to live. Timer passes and watch passes
// never overlap: each waits for the one before.
import { bootstrapTokenSecretType, decodeBootstrapTokenSecret, type BootstrapTokenSecret } from '../../authn/bootstrap/bootstrap-token.ts';
import type { GenericStore } from '../../registry/generic/store.ts';
import type { ControllerDeps } from '../controller.ts';
import { runWatchedLoop, type WatchedStore } from '../watched-loop.ts';
import { bootstrapTokenBatchMs, expiryTimerMsMax } from './limits.ts';

/** The field selector of bootstrap token Secrets. */
export const tokenSecretSelector = `type=${bootstrapTokenSecretType}`;

/** The core/v1 store of `plural`; its absence is a wiring bug. */
export function coreStore(deps: ControllerDeps, plural: string): GenericStore {
  const served = deps.registry.find('', 'v1', plural);
  const store = served && deps.stores.get(served);
  if (store === undefined) throw new Error(`assert: no ${plural} store`);
  return store;
}

/** The bootstrap token Secrets of `namespaces`, decoded, in the namespaces' order. */
export async function listTokenSecrets(secrets: GenericStore, namespaces: readonly string[]): Promise<BootstrapTokenSecret[]> {
  const found: BootstrapTokenSecret[] = [];
  for (const namespace of namespaces) {
    const listed = await secrets.list(namespace, { fieldSelector: tokenSecretSelector });
    found.push(...listed.items.map(decodeBootstrapTokenSecret));
  }
  return found;
}

/** What one bootstrap-token controller gives `runTokenLoop`. */
export interface TokenLoop {
  readonly name: string;
  /** Watched besides the token Secrets. */
  readonly alsoWatched?: readonly WatchedStore[];
  /** One pass; resolves to the milliseconds until the next token expiry that matters (undefined: none). */
  pass(signal: AbortSignal): Promise<number | undefined>;
  readonly resyncMs: number;
}

/** Runs `loop` until `signal` aborts; resolves once stopped. */
export async function runTokenLoop(deps: ControllerDeps, loop: TokenLoop, signal: AbortSignal): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let previous: Promise<unknown> = Promise.resolve();
  const arm = (ms: number | undefined): void => {
    clearTimeout(timer);
    timer = undefined;
    if (ms === undefined || signal.aborted) return;
    timer = setTimeout(() => {
      if (!signal.aborted) serialized().catch((err: unknown) => deps.log(`${loop.name}: pass at token expiry failed`, err));
    }, Math.min(Math.max(ms, 0), expiryTimerMsMax));
  };
  const serialized = (): Promise<void> => {
    const next = previous.catch(() => undefined).then(async () => arm(await loop.pass(signal)));
    previous = next;
    return next;
  };
  try {
    await runWatchedLoop({
      watched: [{ store: coreStore(deps, 'secrets'), fieldSelector: tokenSecretSelector }, ...(loop.alsoWatched ?? [])],
      pass: serialized,
      resyncMs: loop.resyncMs,
      batchMs: bootstrapTokenBatchMs,
      failureMessage: `${loop.name}: pass failed`,
      log: deps.log,
    }, signal);
  } finally {
    clearTimeout(timer);
    await previous.catch(() => undefined);
  }
}
