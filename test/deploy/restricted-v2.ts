// The rules of OpenShift's restricted-v2 SecurityContextConstraints (the default for every authenticated user since
// OpenShift 4.11), applied to a pod spec the way the SCC admission would judge it, plus what Pod Security Admission's
// `restricted` profile asks to be explicit (allowPrivilegeEscalation, seccomp), so one check serves both platforms.
//   runAsUser: MustRunAsRange, fsGroup: MustRunAs (the namespace's range, openshift.io/sa.scc.uid-range, is only
//   known once the namespace exists: a manifest must leave them unset), seLinuxContext: MustRunAs,
//   requiredDropCapabilities: [ALL], allowedCapabilities: [NET_BIND_SERVICE], allowPrivilegeEscalation: false,
//   seccompProfiles: [runtime/default], no privileged, host namespaces, host paths or host ports, and volumes of
//   the listed types only.

export const ALLOWED_VOLUME_TYPES = [
  'configMap',
  'downwardAPI',
  'emptyDir',
  'ephemeral',
  'persistentVolumeClaim',
  'projected',
  'secret',
  'csi',
] as const;

export interface RestrictedOptions {
  /** The namespace's UID range (openshift.io/sa.scc.uid-range); absent: no fixed UID or fsGroup is acceptable. */
  uidRange?: { min: number; max: number };
}

/** Every reason the SCC (or PSA restricted) would refuse this pod spec, each naming the field. Empty: admitted. */
export function restrictedV2Violations(podSpec: any, opts: RestrictedOptions = {}): string[] {
  const out: string[] = [];
  const pod = podSpec?.securityContext ?? {};
  const inRange = (v: number) => opts.uidRange !== undefined && v >= opts.uidRange.min && v <= opts.uidRange.max;
  const fixedId = (field: string, v: unknown) => {
    if (v === undefined || v === null) return;
    if (typeof v === 'number' && inRange(v)) return;
    out.push(`${field}: ${String(v)} is outside the namespace's range (leave it unset: the SCC assigns one)`);
  };

  for (const host of ['hostNetwork', 'hostPID', 'hostIPC'] as const)
    if (podSpec?.[host] === true) out.push(`spec.${host}: host namespaces are not allowed`);
  fixedId('spec.securityContext.runAsUser', pod.runAsUser);
  fixedId('spec.securityContext.fsGroup', pod.fsGroup);
  if (pod.seLinuxOptions) out.push('spec.securityContext.seLinuxOptions: the SCC sets the namespace MCS level');
  const podSeccomp = seccompOk(pod.seccompProfile);
  if (pod.seccompProfile && !podSeccomp) out.push(`spec.securityContext.seccompProfile: ${pod.seccompProfile.type}`);

  for (const [i, v] of (podSpec?.volumes ?? []).entries()) {
    const type = Object.keys(v).find((k) => k !== 'name');
    if (!type || !(ALLOWED_VOLUME_TYPES as readonly string[]).includes(type))
      out.push(`spec.volumes[${i}].${type ?? '?'}: volume type not allowed (${v.name})`);
  }

  const lists = ['initContainers', 'containers', 'ephemeralContainers'] as const;
  for (const list of lists) {
    for (const [i, c] of (podSpec?.[list] ?? []).entries()) {
      const at = `spec.${list}[${i}]`;
      const sc = c.securityContext ?? {};
      if (sc.privileged === true) out.push(`${at}.securityContext.privileged: not allowed`);
      if (sc.allowPrivilegeEscalation !== false)
        out.push(`${at}.securityContext.allowPrivilegeEscalation: must be false`);
      fixedId(`${at}.securityContext.runAsUser`, sc.runAsUser);
      if (sc.seLinuxOptions) out.push(`${at}.securityContext.seLinuxOptions: the SCC sets the namespace MCS level`);
      const nonRoot = sc.runAsNonRoot ?? pod.runAsNonRoot;
      if (nonRoot !== true) out.push(`${at}: runAsNonRoot must be true (pod or container securityContext)`);
      if (sc.runAsUser === 0 || pod.runAsUser === 0) out.push(`${at}: runs as root (runAsUser 0)`);
      const profile = sc.seccompProfile ?? pod.seccompProfile;
      if (!seccompOk(profile))
        out.push(`${at}.securityContext.seccompProfile: RuntimeDefault or Localhost required, got ${profile?.type}`);
      const drop: string[] = sc.capabilities?.drop ?? [];
      if (!drop.includes('ALL')) out.push(`${at}.securityContext.capabilities.drop: must include ALL`);
      for (const cap of sc.capabilities?.add ?? [])
        if (cap !== 'NET_BIND_SERVICE') out.push(`${at}.securityContext.capabilities.add: ${cap} is not allowed`);
      for (const [j, p] of (c.ports ?? []).entries())
        if (p.hostPort !== undefined && p.hostPort !== 0) out.push(`${at}.ports[${j}].hostPort: not allowed`);
    }
  }
  return out;
}

function seccompOk(profile: any): boolean {
  return profile?.type === 'RuntimeDefault' || profile?.type === 'Localhost';
}

/** The pod spec inside a workload object, or undefined for objects that run no pods. */
export function podSpecOf(obj: any): any {
  switch (obj?.kind) {
    case 'Pod':
      return obj.spec;
    case 'Deployment':
    case 'StatefulSet':
    case 'DaemonSet':
    case 'ReplicaSet':
    case 'Job':
      return obj.spec?.template?.spec;
    case 'CronJob':
      return obj.spec?.jobTemplate?.spec?.template?.spec;
    default:
      return undefined;
  }
}
