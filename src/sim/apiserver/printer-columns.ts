// The columns `kubectl get` shows, computed by the server (Table output): a CRD's additionalPrinterColumns (or
// the default Age column), and for built-in kinds the columns of pkg/printers/internalversion/printers.go.
import type { ResourceType } from './types.js';
import { compileJsonPath } from './json-path.js';

export interface Column {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
  cell(obj: any, nowMs: number): unknown;
}

const NAME_DESCRIPTION =
  'Name must be unique within a namespace. Is required when creating resources, although some ' +
  'resources may allow a client to request the generation of an appropriate name ' +
  'automatically. Name is primarily intended for creation idempotence and configuration ' +
  'definition. Cannot be updated. More info: ' +
  'http://kubernetes.io/docs/user-guide/identifiers#names';
const CREATED_DESCRIPTION =
  'CreationTimestamp is a timestamp representing the server time when this object was ' +
  'created. It is not guaranteed to be set in happens-before order across separate ' +
  'operations. Clients may not set this value. It is represented in RFC3339 form and is in ' +
  'UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: ' +
  'https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

/** k8s.io/apimachinery/pkg/util/duration.HumanDuration. */
export function humanDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) return seconds % 60 ? `${minutes}m${seconds % 60}s` : `${minutes}m`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) return minutes % 60 ? `${hours}h${minutes % 60}m` : `${hours}h`;
  if (hours < 48) return `${hours}h`;
  const days = Math.floor(hours / 24);
  if (hours < 24 * 8) return hours % 24 ? `${days}d${hours % 24}h` : `${days}d`;
  if (hours < 24 * 365 * 2) return `${days}d`;
  const years = Math.floor(days / 365);
  if (hours < 24 * 365 * 8) return days % 365 ? `${years}y${days % 365}d` : `${years}y`;
  return `${years}y`;
}

/** A timestamp as the "date" cell: its age, "<unknown>" when unset, "<invalid>" when unparsable. */
export function age(value: unknown, nowMs: number): string {
  if (typeof value !== 'string' || !value) return '<unknown>';
  const t = Date.parse(value);
  return Number.isNaN(t) ? '<invalid>' : humanDuration(nowMs - t);
}

const col = (name: string, type: string, cell: Column['cell'], extra: Partial<Column> = {}): Column => ({
  name,
  type,
  format: '',
  description: '',
  priority: 0,
  cell,
  ...extra,
});
const nameColumn = col('Name', 'string', (o) => o.metadata?.name ?? '', {
  format: 'name',
  description: NAME_DESCRIPTION,
});
// The built-in printers declare Age as a "string" column (its cell is the printed age); only CRD columns are "date".
const ageColumn = col('Age', 'string', (o, now) => age(o.metadata?.creationTimestamp, now), {
  description: CREATED_DESCRIPTION,
});
const createdAt = col('Created At', 'date', (o) => o.metadata?.creationTimestamp ?? null, {
  description: CREATED_DESCRIPTION,
});
const count = (...maps: unknown[]) =>
  maps.reduce<number>((n, m) => n + (m && typeof m === 'object' ? Object.keys(m).length : 0), 0);

/** Value of a CRD column (apiextensions tableconvertor: first result; strings printed, other types converted). */
function crdCell(type: string, find: (o: unknown) => unknown[]) {
  return (obj: any, nowMs: number): unknown => {
    const [value] = find(obj);
    if (value === undefined || value === null) return null;
    switch (type) {
      case 'string':
        return typeof value === 'object' ? JSON.stringify(value) : String(value);
      case 'integer':
        return typeof value === 'number' ? Math.trunc(value) : null;
      case 'number':
        return typeof value === 'number' ? value : null;
      case 'boolean':
        return typeof value === 'boolean' ? value : null;
      case 'date':
        return typeof value === 'string' ? age(value, nowMs) : null;
      default:
        return null;
    }
  };
}

function crdColumns(defs: any[] | undefined): Column[] {
  const list = defs?.length
    ? defs
    : [{ name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp', description: CREATED_DESCRIPTION }];
  return [
    nameColumn,
    ...list.map((d) =>
      col(d.name, d.type, crdCell(d.type, compileJsonPath(d.jsonPath)), {
        format: d.format ?? '',
        priority: d.priority ?? 0,
        description: d.description || `Custom resource definition column (in JSONPath format): ${d.jsonPath}`,
      }),
    ),
  ];
}

function eventColumns(): Column[] {
  const lastSeen = (e: any, now: number) => {
    const t = e.series?.lastObservedTime ?? e.lastTimestamp ?? e.firstTimestamp ?? e.eventTime;
    return age(t, now);
  };
  const object = (e: any) =>
    [String(e.involvedObject?.kind ?? '').toLowerCase(), e.involvedObject?.name].filter(Boolean).join('/');
  const source = (e: any) =>
    e.source?.component ? [e.source.component, e.source.host].filter(Boolean).join(', ') : (e.reportingComponent ?? '');
  const wide = { priority: 1 };
  return [
    col('Last Seen', 'string', lastSeen),
    col('Type', 'string', (e) => e.type ?? ''),
    col('Reason', 'string', (e) => e.reason ?? ''),
    col('Object', 'string', object),
    col('Subobject', 'string', (e) => e.involvedObject?.fieldPath ?? '', wide),
    col('Source', 'string', source, wide),
    col('Message', 'string', (e) => e.message ?? ''),
    col('First Seen', 'string', (e, now) => age(e.firstTimestamp ?? e.eventTime, now), wide),
    col('Count', 'string', (e) => e.series?.count ?? (e.count || 1), wide),
    { ...nameColumn, ...wide },
  ];
}

/** The columns for one served resource. */
export function columnsFor(type: ResourceType): Column[] {
  if (type.custom) return crdColumns(type.custom.printerColumns);
  switch (`${type.group}/${type.resource}`) {
    case '/namespaces':
      return [nameColumn, col('Status', 'string', (o) => o.status?.phase ?? ''), ageColumn];
    // Counts are int64 cells under a "string" column, as printSecret, printConfigMap and printServiceAccount write them.
    case '/secrets':
      return [
        nameColumn,
        col('Type', 'string', (o) => o.type ?? ''),
        col('Data', 'string', (o) => count(o.data)),
        ageColumn,
      ];
    case '/configmaps':
      return [nameColumn, col('Data', 'string', (o) => count(o.data, o.binaryData)), ageColumn];
    case '/serviceaccounts':
      return [nameColumn, col('Secrets', 'string', (o) => o.secrets?.length ?? 0), ageColumn];
    case '/events':
      return eventColumns();
    case 'coordination.k8s.io/leases':
      return [nameColumn, col('Holder', 'string', (o) => o.spec?.holderIdentity ?? ''), ageColumn];
    case 'rbac.authorization.k8s.io/rolebindings':
    case 'rbac.authorization.k8s.io/clusterrolebindings': {
      const subjects = (kind: string) => (o: any) =>
        (o.subjects ?? [])
          .filter((s: any) => s.kind === kind)
          .map((s: any) => (kind === 'ServiceAccount' ? `${s.namespace ?? ''}/${s.name}` : s.name))
          .join(', ');
      return [
        nameColumn,
        col('Role', 'string', (o) => `${o.roleRef?.kind}/${o.roleRef?.name}`),
        ageColumn,
        col('Users', 'string', subjects('User'), { priority: 1 }),
        col('Groups', 'string', subjects('Group'), { priority: 1 }),
        col('ServiceAccounts', 'string', subjects('ServiceAccount'), { priority: 1 }),
      ];
    }
    default:
      return [nameColumn, createdAt];
  }
}
