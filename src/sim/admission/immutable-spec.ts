import { canonicalJson } from '../hive/names.js';

// mutableFields in the CD webhook: every other spec change is refused (REFERENCE §2.1).
const MUTABLE_TOP = new Set([
  'certificateBundles',
  'clusterMetadata',
  'controlPlaneConfig',
  'ingress',
  'installed',
  'preserveOnDelete',
  'clusterPoolRef',
  'powerState',
  'hibernateAfter',
  'installAttemptsLimit',
]);
const MUTABLE_NESTED = [
  ['platform', 'agentBareMetal', 'agentSelector'],
  ['platform', 'aws', 'privateLink', 'additionalAllowedPrincipals'],
  ['platform', 'gcp', 'discardLocalSsdOnHibernate'],
];
const GO_NAMES =
  `CertificateBundles,ClusterMetadata,ControlPlaneConfig,Ingress,Installed,PreserveOnDelete,ClusterPoolRef,
PowerState,HibernateAfter,InstallAttemptsLimit,Platform.AgentBareMetal.AgentSelector,
Platform.AWS.PrivateLink.AdditionalAllowedPrincipals,Platform.GCP.DiscardLocalSsdOnHibernate`.replace(/\s+/g, '');

/** cmpopts.EquateEmpty: absent, null, "" , false, 0, {} and [] compare equal to each other. */
function normalize(v: unknown): unknown {
  if (Array.isArray(v)) return v.length ? v.map(normalize) : undefined;
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      const n = normalize(x);
      if (n !== undefined) out[k] = n;
    }
    return Object.keys(out).length ? out : undefined;
  }
  if (v === null || v === '' || v === false || v === 0) return undefined;
  return v;
}

function withoutMutable(spec: Record<string, any>): Record<string, any> {
  const copy = structuredClone(spec ?? {});
  for (const k of MUTABLE_TOP) delete copy[k];
  for (const path of MUTABLE_NESTED) {
    let o: any = copy;
    for (const seg of path.slice(0, -1)) o = o?.[seg];
    if (o && typeof o === 'object') delete o[path[path.length - 1]!];
  }
  return copy;
}

const goField = (k: string) => k.charAt(0).toUpperCase() + k.slice(1);

function diffs(a: unknown, b: unknown, path: string, out: string[]) {
  if (canonicalJson(a) === canonicalJson(b)) return;
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of [...keys].sort()) diffs((a as any)[k], (b as any)[k], `${path}.${goField(k)}`, out);
    return;
  }
  out.push(`\t${path}: (${JSON.stringify(a ?? null)} => ${JSON.stringify(b ?? null)})`);
}

/** The webhook's message when an immutable spec field changed, or undefined when only mutable fields differ. */
export function immutableSpecDiff(oldSpec: Record<string, any>, newSpec: Record<string, any>): string | undefined {
  const a = normalize(withoutMutable(oldSpec));
  const b = normalize(withoutMutable(newSpec));
  if (canonicalJson(a ?? {}) === canonicalJson(b ?? {})) return undefined;
  const out: string[] = [];
  diffs(a ?? {}, b ?? {}, '{v1.ClusterDeploymentSpec}', out);
  return `Attempted to change ClusterDeployment.Spec which is immutable except for ${GO_NAMES} fields. Unsupported change: \n${out.join('\n')}`;
}
