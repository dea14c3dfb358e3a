// Kubernetes and DNS names (RFC 1123), with their lengths: a pattern alone takes a 300-character label.

const LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** A DNS label: a namespace, a hub, most object names (at most 63 characters). */
export function isDnsLabel(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 63 && LABEL.test(value);
}

/** A DNS subdomain: labels joined by dots, each at most 63 characters, at most 253 in all (a base domain). */
export function isDnsSubdomain(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 253 && value.split('.').every(isDnsLabel);
}
