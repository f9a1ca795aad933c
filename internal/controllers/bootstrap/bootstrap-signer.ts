// kube-controller-manager's bootstrapsigner (pkg/controller/bootstrap/bootstrapsigner.go and
// util.go, 1.28): ConfigMap `cluster-info` carries, beside its `kubeconfig`, one entry
// `jws-kubeconfig-<id>` per token that may sign (valid name and id, not expired,
// `usage-bootstrap-signing: "true"`): the detached JWS of the kubeconfig under that token. Entries
// of other tokens are removed; the ConfigMap is written only when an entry changes, never created.
// orch signs cluster-info in kube-public and orch-public with the tokens of kube-system and
// orch-system (kube-system's wins for an id in both). Off unless `--controllers` names it.
import { isDeepStrictEqual } from 'node:util';
import { bootstrapTokenKeys, bootstrapTokenNamespaces, signingToken, tokenExpiration, tokenIdOfSecretName, type BootstrapTokenSecret } from '../../authn/bootstrap/bootstrap-token.ts';
import { hasStatus } from '../../registry/errors/status-error.ts';
import type { GenericStore } from '../../registry/generic/store.ts';
import type { KObject } from '../../registry/schema/declaration.ts';
import type { Controller, ControllerDeps } from '../controller.ts';
import { controllerManagerFieldManager } from '../serviceaccounts/per-namespace-object.ts';
import { clusterInfoName, clusterInfoNamespaces, kubeconfigKey } from './cluster-info.ts';
import { detachedSignature } from './detached-jws.ts';
import { bootstrapTokenResyncMs } from './limits.ts';
import { coreStore, listTokenSecrets, runTokenLoop } from './token-loop.ts';

/** The controller's name, as kube-controller-manager's `--controllers` knows it. */
export const bootstrapSignerName = 'bootstrapsigner';

/** The prefix of the signature entries. */
export const signatureKeyPrefix = 'jws-kubeconfig-';

/** The signer's tuning; tests inject the clock. */
export interface BootstrapSignerOptions {
  /** Milliseconds since the epoch (default Date.now). */
  readonly clock?: () => number;
  /** Where token Secrets are read, first wins for an id (default kube-system, orch-system). */
  readonly tokenNamespaces?: readonly string[];
  /** Where cluster-info is signed (default kube-public, orch-public). */
  readonly configMapNamespaces?: readonly string[];
  readonly resyncIntervalMs?: number;
}

/**
 * The signing tokens among `secrets` at `nowMs`, id to secret. Of two Secrets with one id the first
 * decides, fit to sign or not, as the authenticator lets the first that exists decide: an unfit
 * kube-system Secret is not stood in for by an orch-system one.
 */
export function signingTokens(secrets: readonly BootstrapTokenSecret[], nowMs: number): Map<string, string> {
  const tokens = new Map<string, string>();
  const decided = new Set<string>();
  for (const secret of secrets) {
    const id = tokenIdOfSecretName(secret.name);
    if (id === undefined || decided.has(id)) continue;
    decided.add(id);
    const token = signingToken(secret, nowMs);
    if (token !== undefined) tokens.set(token.id, token.secret);
  }
  return tokens;
}

/** cluster-info's data with exactly one signature per token, or undefined when it has them already (or has no kubeconfig). */
export async function signedClusterInfoData(data: Readonly<Record<string, string>>, tokens: ReadonlyMap<string, string>): Promise<Record<string, string> | undefined> {
  const content = data[kubeconfigKey];
  if (content === undefined) return undefined;
  const signed = Object.fromEntries(Object.entries(data).filter(([key]) => !key.startsWith(signatureKeyPrefix)));
  for (const [id, secret] of tokens) signed[`${signatureKeyPrefix}${id}`] = await detachedSignature(content, id, secret);
  return isDeepStrictEqual(signed, { ...data }) ? undefined : signed;
}

async function signIn(deps: ControllerDeps, configMaps: GenericStore, namespace: string, tokens: ReadonlyMap<string, string>): Promise<void> {
  let current: KObject;
  try {
    current = await configMaps.get(namespace, clusterInfoName);
  } catch (err) {
    if (hasStatus(err, 404)) return;
    throw err;
  }
  const data = (current.data ?? {}) as Record<string, string>;
  const signed = await signedClusterInfoData(data, tokens);
  if (signed === undefined) return;
  try {
    await configMaps.update(namespace, clusterInfoName, { ...current, data: signed }, { fieldManager: controllerManagerFieldManager });
  } catch (err) {
    // Changed or gone meanwhile: its event brings the next pass.
    if (!hasStatus(err, 409) && !hasStatus(err, 404)) throw err;
  }
}

/** The time until the first signing token expires (its entry must go then), or undefined. */
function nextExpiryMs(secrets: readonly BootstrapTokenSecret[], tokens: ReadonlyMap<string, string>, nowMs: number): number | undefined {
  const remaining = secrets.filter((s) => tokens.has(s.data[bootstrapTokenKeys.id] ?? '')).map((s) => tokenExpiration(s, nowMs).remainingMs).filter((ms) => ms !== undefined);
  return remaining.length === 0 ? undefined : Math.min(...remaining);
}

/** The bootstrapsigner, acting as `deps` says (the replica gives it service account kube-system:bootstrap-signer). */
export function createBootstrapSigner(deps: ControllerDeps, options: BootstrapSignerOptions = {}): Controller {
  const clock = options.clock ?? Date.now;
  const tokenNamespaces = options.tokenNamespaces ?? bootstrapTokenNamespaces;
  const configMapNamespaces = options.configMapNamespaces ?? clusterInfoNamespaces;
  return {
    name: bootstrapSignerName,
    async run(signal) {
      const secrets = coreStore(deps, 'secrets');
      const configMaps = coreStore(deps, 'configmaps');
      const pass = async (): Promise<number | undefined> => {
        const listed = await listTokenSecrets(secrets, tokenNamespaces);
        const tokens = signingTokens(listed, clock());
        for (const namespace of configMapNamespaces) await signIn(deps, configMaps, namespace, tokens);
        return nextExpiryMs(listed, tokens, clock());
      };
      await runTokenLoop(deps, {
        name: bootstrapSignerName,
        alsoWatched: [{ store: configMaps, fieldSelector: `metadata.name=${clusterInfoName}` }],
        pass,
        resyncMs: options.resyncIntervalMs ?? bootstrapTokenResyncMs,
      }, signal);
    },
  };
}
