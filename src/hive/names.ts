// Kubernetes and DNS names (RFC 1123), with their lengths: a pattern alone takes a 300-character label. The patterns
// are exported for the API's JSON schemas, which carry the lengths as minLength/maxLength.

/** A DNS-1123 label: lowercase alphanumerics and `-`, alphanumeric at both ends. */
export const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
/** A DNS-1123 subdomain: labels joined by `.` (Kubernetes' rule for most object names). */
export const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** A DNS label: a namespace, a hub, most object names (at most 63 characters). */
export function isDnsLabel(value: unknown): boolean {
  return typeof value === 'string' && value.length <= 63 && DNS_LABEL.test(value);
}

/** A DNS subdomain: labels joined by dots, each at most 63 characters, at most 253 in all (a base domain). */
export function isDnsSubdomain(value: unknown): boolean {
  return typeof value === 'string' && value.length <= 253 && value.split('.').every(isDnsLabel);
}

/**
 * The name of a Secret or a ClusterImageSet: a DNS subdomain of at most 253 characters, with no cap per label, as
 * the API server checks it (apimachinery IsDNS1123Subdomain), unlike a base domain.
 */
export function isObjectName(value: unknown): boolean {
  return typeof value === 'string' && value.length <= 253 && DNS_SUBDOMAIN.test(value);
}
