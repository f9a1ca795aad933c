// kube-controller-manager's service-account tokens controller (pkg/controller/serviceaccount/
// tokens_controller.go, 1.28): a Secret of type `kubernetes.io/service-account-token` naming a
// service account (annotation `kubernetes.io/service-account.name`) gets a non-expiring token of
// that account, the CA bundle and its namespace in its data, and the account's uid annotated; a
// token Secret whose account is gone (or is another account of the same name) is deleted.
import { hasStatus } from '../../registry/errors/status-error.ts';
import type { GenericStore } from '../../registry/generic/store.ts';
import type { KObject } from '../../registry/schema/declaration.ts';
import type { Controller, ControllerDeps } from '../controller.ts';
import { legacyTokenBatchMs, legacyTokenResyncMs } from '../limits.ts';
import { runWatchedLoop } from '../watched-loop.ts';

/** The controller's name, as kube-controller-manager calls it. */
export const legacyTokenControllerName = 'serviceaccount-token';

export const serviceAccountTokenType = 'kubernetes.io/service-account-token';
export const serviceAccountNameAnnotation = 'kubernetes.io/service-account.name';
export const serviceAccountUidAnnotation = 'kubernetes.io/service-account.uid';
const tokenTypeSelector = `type=${serviceAccountTokenType}`;

/** What the controller mints with: the server's service-account token issuer and the CA bundle clients trust. */
export interface LegacyTokenOptions {
  readonly issueToken: (account: { namespace: string; name: string; uid: string }, secretName: string) => string;
  readonly rootCaBundle: string;
  readonly resyncIntervalMs?: number;
}

const base64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');

/** The Secret with its token, CA and namespace filled in, or undefined when it has them all. */
export function populatedTokenSecret(secret: KObject, account: KObject, options: LegacyTokenOptions): KObject | undefined {
  const data = { ...((secret.data as Record<string, string> | undefined) ?? {}) };
  const namespace = secret.metadata.namespace ?? '';
  const annotations = { ...(secret.metadata.annotations ?? {}) };
  const uid = account.metadata.uid ?? '';
  let changed = false;
  if ((data.token ?? '') === '') {
    data.token = base64(options.issueToken({ namespace, name: account.metadata.name ?? '', uid }, secret.metadata.name ?? ''));
    changed = true;
  }
  if ((data['ca.crt'] ?? '') === '' && options.rootCaBundle !== '') {
    data['ca.crt'] = base64(options.rootCaBundle);
    changed = true;
  }
  if ((data.namespace ?? '') === '') {
    data.namespace = base64(namespace);
    changed = true;
  }
  if (annotations[serviceAccountUidAnnotation] !== uid) {
    annotations[serviceAccountUidAnnotation] = uid;
    changed = true;
  }
  return changed ? { ...secret, metadata: { ...secret.metadata, annotations }, data } : undefined;
}

function storeOf(deps: ControllerDeps, plural: string): GenericStore {
  const served = deps.registry.find('', 'v1', plural);
  const store = served && deps.stores.get(served);
  if (store === undefined) throw new Error(`assert: no ${plural} store`);
  return store;
}

async function pass(deps: ControllerDeps, secrets: GenericStore, accounts: GenericStore, options: LegacyTokenOptions): Promise<void> {
  const tokens = (await secrets.list(undefined, { fieldSelector: tokenTypeSelector })).items;
  if (tokens.length === 0) return;
  const byName = new Map((await accounts.list(undefined, {})).items.map((a) => [`${a.metadata.namespace ?? ''}/${a.metadata.name ?? ''}`, a]));
  for (const secret of tokens) {
    const namespace = secret.metadata.namespace ?? '';
    const name = secret.metadata.name ?? '';
    const annotations = secret.metadata.annotations ?? {};
    const account = byName.get(`${namespace}/${annotations[serviceAccountNameAnnotation] ?? ''}`);
    const wantedUid = annotations[serviceAccountUidAnnotation] ?? '';
    try {
      if (account === undefined || (wantedUid !== '' && wantedUid !== account.metadata.uid)) {
        // As kube: a token of no (or of another) account is removed, unless it is already going.
        if (secret.metadata.deletionTimestamp === undefined) await secrets.delete(namespace, name, { preconditions: { uid: secret.metadata.uid ?? '' } });
        continue;
      }
      const populated = populatedTokenSecret(secret, account, options);
      if (populated !== undefined) await secrets.update(namespace, name, populated, { fieldManager: 'kube-controller-manager' });
    } catch (err) {
      // Changed or gone meanwhile: the next pass sees it.
      if (!hasStatus(err, 409) && !hasStatus(err, 404)) deps.log(`${legacyTokenControllerName}: secret ${namespace}/${name} not handled`, err);
    }
  }
}

/** The tokens controller: watches token Secrets and service accounts; resyncs periodically. */
export function createLegacyTokenController(deps: ControllerDeps, options: LegacyTokenOptions): Controller {
  return {
    name: legacyTokenControllerName,
    async run(signal) {
      const secrets = storeOf(deps, 'secrets');
      const accounts = storeOf(deps, 'serviceaccounts');
      await runWatchedLoop({
        watched: [{ store: secrets, fieldSelector: tokenTypeSelector }, { store: accounts }],
        pass: () => pass(deps, secrets, accounts, options),
        resyncMs: options.resyncIntervalMs ?? legacyTokenResyncMs,
        batchMs: legacyTokenBatchMs,
        failureMessage: `${legacyTokenControllerName}: pass failed`,
        log: deps.log,
      }, signal);
    },
  };
}
