// The 403 of an authorization refusal, worded as kube-apiserver 1.28's responsewriters.Forbidden
// and apierrors.NewForbidden word it, e.g.
//   pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default"
//   forbidden: User "bob" cannot get path "/metrics"
// with `: <reason>` appended when the authorizers gave one (RBAC's is `RBAC: <errors>`).
import { StatusError, type StatusDetails } from '../registry/errors/status-error.ts';
import type { Attributes } from './authorizer.ts';
import { goQuote } from './go-format.ts';

// kube escapes these in the message (not in the reason) so an HTML-rendering client shows them as text.
function sanitize(message: string): string {
  return message.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The sentence saying who may not do what (kube's forbiddenMessage), without the resource prefix. */
export function forbiddenMessage(attributes: Attributes): string {
  const user = goQuote(attributes.user.username);
  if (!attributes.resourceRequest) return `User ${user} cannot ${attributes.verb} path ${goQuote(attributes.path)}`;
  const resource = attributes.subresource === '' ? attributes.resource : `${attributes.resource}/${attributes.subresource}`;
  const start = `User ${user} cannot ${attributes.verb} resource ${goQuote(resource)} in API group ${goQuote(attributes.apiGroup)}`;
  return attributes.namespace === '' ? `${start} at the cluster scope` : `${start} in the namespace ${goQuote(attributes.namespace)}`;
}

/**
 * The 403 Forbidden Status of apierrors.NewForbidden: `<resource>[.<group>] ["name"] is forbidden: <why>`,
 * or `forbidden: <why>` when no resource is named. Details name the group, the resource (as kind) and the name.
 */
export function newForbidden(parts: { group: string; resource: string; name: string }, why: string): StatusError {
  const qualified = parts.group === '' ? parts.resource : `${parts.resource}.${parts.group}`;
  let message: string;
  if (parts.resource === '' && parts.group === '') message = `forbidden: ${why}`;
  else if (parts.name === '') message = `${qualified} is forbidden: ${why}`;
  else message = `${qualified} ${goQuote(parts.name)} is forbidden: ${why}`;
  // As Go's omitempty: an empty field is left out, so a non-resource refusal has `details: {}`.
  const details: { -readonly [K in keyof StatusDetails]: StatusDetails[K] } = {};
  if (parts.name !== '') details.name = parts.name;
  if (parts.group !== '') details.group = parts.group;
  if (parts.resource !== '') details.kind = parts.resource;
  return new StatusError(403, 'Forbidden', message, details);
}

/** The 403 the authorization filter answers when no authorizer allowed the request; `reason` is the union's ('' for none). */
export function forbiddenError(attributes: Attributes, reason: string): StatusError {
  const message = sanitize(forbiddenMessage(attributes));
  const why = reason === '' ? message : `${message}: ${reason}`;
  return newForbidden({ group: attributes.apiGroup, resource: attributes.resource, name: attributes.name }, why);
}
