// Path parameters naming a Kubernetes object on a hub. Checked against the naming rules up front, so
// `/v1/clusters/East/ns/x` is a 400 naming `hub` rather than a 404 that suggests the object is merely missing.
import { Type } from 'typebox';
import { HUB_NAME } from '../../config/hubs.js';
import { DNS_LABEL, DNS_SUBDOMAIN } from '../../hive/names.js';

/** A hub name follows the config's rule (a DNS label; it appears in job ids and queue names). */
export const HubName = Type.String({
  minLength: 1,
  maxLength: 63,
  pattern: HUB_NAME.source,
  description: 'Hub name from the configuration',
  examples: ['east'],
});

/** Namespaces are DNS labels (RFC 1123): lowercase alphanumerics and `-`, at most 63. */
export const NamespaceName = Type.String({
  minLength: 1,
  maxLength: 63,
  pattern: DNS_LABEL.source,
  description: 'Namespace (a DNS label)',
});

/** Object names are DNS subdomains (RFC 1123): DNS labels joined by `.`, at most 253. */
export const ObjectName = Type.String({
  minLength: 1,
  maxLength: 253,
  pattern: DNS_SUBDOMAIN.source,
  description: 'Object name (a DNS subdomain)',
});

/** `{hub}/{namespace}/{name}`: how every namespaced object is addressed, on any hub. */
export const ObjectRefParams = Type.Object({ hub: HubName, namespace: NamespaceName, name: ObjectName });
