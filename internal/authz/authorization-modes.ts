// `--authorization-mode`: the ordered list of authorizers kube-apiserver 1.28 builds
// (pkg/kubeapiserver/authorizer/config.go), always behind the system:masters authorizer.
import { systemMasters } from '../authn/user-info.ts';
import type { Authorizer, RuleResolver } from './authorizer.ts';
import { alwaysAllow, alwaysDeny, privilegedGroups } from './builtin-authorizers.ts';
import { untilSynced } from './rbac/not-synced.ts';
import { RbacAuthorizer } from './rbac/rbac-authorizer.ts';
import type { RbacIndex } from './rbac/rbac-index.ts';
import { unionAuthorizer, unionRuleResolver } from './union.ts';
import { WebhookAuthorizer, type WebhookAuthorizerOptions } from './webhook/webhook-authorizer.ts';

/** The modes orch supports. */
export type AuthorizationMode = 'AlwaysAllow' | 'AlwaysDeny' | 'RBAC' | 'Webhook';

/** `--authorization-mode`'s default. */
export const authorizationModesDefault: readonly AuthorizationMode[] = ['RBAC'];

const known: readonly AuthorizationMode[] = ['AlwaysAllow', 'AlwaysDeny', 'RBAC', 'Webhook'];

/** Parses the flag (`RBAC,Webhook`); throws on an unknown or repeated mode, as kube-apiserver refuses to start. */
export function parseAuthorizationModes(flag: string): AuthorizationMode[] {
  const modes = flag.split(',').map((m) => m.trim()).filter((m) => m !== '');
  if (modes.length === 0) return [...authorizationModesDefault];
  const seen = new Set<string>();
  for (const m of modes) {
    if (!known.includes(m as AuthorizationMode)) throw new Error(`authorization-mode "${m}" is not a valid mode`);
    if (seen.has(m)) throw new Error(`authorization-mode "${m}" has mode specified more than once`);
    seen.add(m);
  }
  return modes as AuthorizationMode[];
}

/** What building the chain needs: the RBAC index when RBAC is on, the webhook's options when Webhook is. */
export interface AuthorizationConfig {
  readonly modes: readonly AuthorizationMode[];
  readonly rbacIndex?: RbacIndex;
  /** Whether the RBAC index holds the store's objects yet (absent: always); until then RBAC allows nothing. */
  readonly rbacSynced?: () => boolean;
  readonly webhook?: WebhookAuthorizerOptions;
}

/** The request authorizer and the rule resolver (for SelfSubjectRulesReview) of a configuration. */
export interface AuthorizationChain {
  readonly authorizer: Authorizer;
  readonly ruleResolver: RuleResolver;
  /** The RBAC authorizer alone (escalation checks resolve rules through it), when RBAC is on. */
  readonly rbac?: RbacAuthorizer;
}

/** Builds the chain: system:masters first, then each mode in order. Throws when a mode lacks what it needs. */
export function buildAuthorization(config: AuthorizationConfig): AuthorizationChain {
  const authorizers: Authorizer[] = [privilegedGroups([systemMasters])];
  const resolvers: RuleResolver[] = [];
  let rbac: RbacAuthorizer | undefined;
  for (const mode of config.modes) {
    switch (mode) {
      case 'AlwaysAllow':
        authorizers.push(alwaysAllow);
        resolvers.push(alwaysAllow);
        break;
      case 'AlwaysDeny':
        authorizers.push(alwaysDeny);
        resolvers.push(alwaysDeny);
        break;
      case 'RBAC': {
        if (config.rbacIndex === undefined) throw new Error('authorization mode RBAC needs the RBAC index');
        rbac = new RbacAuthorizer(config.rbacIndex);
        const gated = config.rbacSynced === undefined ? rbac : untilSynced(rbac, config.rbacSynced);
        authorizers.push(gated);
        resolvers.push(gated);
        break;
      }
      case 'Webhook': {
        if (config.webhook === undefined) throw new Error('authorization mode Webhook needs --authorization-webhook-config-file');
        const webhook = new WebhookAuthorizer(config.webhook);
        authorizers.push(webhook);
        resolvers.push(webhook);
        break;
      }
    }
  }
  return { authorizer: unionAuthorizer(authorizers), ruleResolver: unionRuleResolver(resolvers), ...(rbac === undefined ? {} : { rbac }) };
}
