// Maps a URL path to discovery or to a resource request. Unknown paths, and kinds addressed at the wrong scope,
// are the plain-text 404 the real server's mux answers (goldens 12, 85).
import type { Registry } from './registry.js';
import type { ResourceType } from './types.js';

export type Route =
  | { kind: 'version' }
  | { kind: 'api' }
  | { kind: 'apis' }
  | { kind: 'group'; group: string }
  | { kind: 'resources'; group: string; version: string }
  | { kind: 'resource'; type: ResourceType; namespace?: string; name?: string; subresource?: string }
  | { kind: 'none' };

export function route(registry: Registry, path: string): Route {
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] === 'version' && parts.length === 1) return { kind: 'version' };
  let group: string, version: string, rest: string[];
  if (parts[0] === 'api') {
    if (parts.length === 1) return { kind: 'api' };
    if (parts[1] !== 'v1') return { kind: 'none' };
    [group, version, rest] = ['', 'v1', parts.slice(2)];
  } else if (parts[0] === 'apis') {
    if (parts.length === 1) return { kind: 'apis' };
    if (parts.length === 2) return { kind: 'group', group: parts[1]! };
    [group, version, rest] = [parts[1]!, parts[2]!, parts.slice(3)];
  } else return { kind: 'none' };
  if (rest.length === 0) return { kind: 'resources', group, version };

  // /namespaces/{ns}/{resource}/... unless it is the Namespace itself (/namespaces/{name}[/status|/finalize]).
  if (
    rest[0] === 'namespaces' &&
    rest.length >= 3 &&
    !(group === '' && rest.length === 3 && (rest[2] === 'status' || rest[2] === 'finalize'))
  ) {
    const type = registry.lookup(group, version, rest[2]!);
    if (!type || !type.namespaced || rest.length > 5) return { kind: 'none' };
    return { kind: 'resource', type, namespace: rest[1], name: rest[3], subresource: rest[4] };
  }
  const type = registry.lookup(group, version, rest[0]!);
  if (!type || rest.length > 3) return { kind: 'none' };
  // A namespaced kind is only listed/watched across namespaces at its cluster path (goldens 54, 85).
  if (type.namespaced && rest.length > 1) return { kind: 'none' };
  return { kind: 'resource', type, name: rest[1], subresource: rest[2] };
}
