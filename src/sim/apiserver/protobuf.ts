// kubectl's imperative generators (create namespace/configmap/secret/serviceaccount/role/rolebinding...) send
// built-in objects as Kubernetes protobuf ("k8s\0" + runtime.Unknown). This decodes those kinds to the JSON the
// rest of the server speaks; field numbers are those of k8s.io/api generated.proto.

type Spec = Record<number, [string, FieldType]>;
type FieldType =
  | 'string'
  | 'bytes64'
  | 'int'
  | 'bool'
  | { message: Spec }
  | { map: 'string' | 'bytes64' }
  | { repeated: 'string' | Spec };

const ownerReference: Spec = {
  1: ['kind', 'string'],
  3: ['name', 'string'],
  4: ['uid', 'string'],
  5: ['apiVersion', 'string'],
  6: ['controller', 'bool'],
  7: ['blockOwnerDeletion', 'bool'],
};
const objectMeta: Spec = {
  1: ['name', 'string'],
  2: ['generateName', 'string'],
  3: ['namespace', 'string'],
  5: ['uid', 'string'],
  6: ['resourceVersion', 'string'],
  7: ['generation', 'int'],
  11: ['labels', { map: 'string' }],
  12: ['annotations', { map: 'string' }],
  13: ['ownerReferences', { repeated: ownerReference }],
  14: ['finalizers', { repeated: 'string' }],
};
const meta: [string, FieldType] = ['metadata', { message: objectMeta }];
const policyRule: Spec = {
  1: ['verbs', { repeated: 'string' }],
  2: ['apiGroups', { repeated: 'string' }],
  3: ['resources', { repeated: 'string' }],
  4: ['resourceNames', { repeated: 'string' }],
  5: ['nonResourceURLs', { repeated: 'string' }],
};
const binding: Spec = {
  1: meta,
  2: [
    'subjects',
    {
      repeated: { 1: ['kind', 'string'], 2: ['apiGroup', 'string'], 3: ['name', 'string'], 4: ['namespace', 'string'] },
    },
  ],
  3: ['roleRef', { message: { 1: ['apiGroup', 'string'], 2: ['kind', 'string'], 3: ['name', 'string'] } }],
};

const resourceAttributes: Spec = {
  1: ['namespace', 'string'],
  2: ['verb', 'string'],
  3: ['group', 'string'],
  4: ['version', 'string'],
  5: ['resource', 'string'],
  6: ['subresource', 'string'],
  7: ['name', 'string'],
};
const nonResourceAttributes: Spec = { 1: ['path', 'string'], 2: ['verb', 'string'] };
const reviewSpec: Spec = {
  1: ['resourceAttributes', { message: resourceAttributes }],
  2: ['nonResourceAttributes', { message: nonResourceAttributes }],
  3: ['user', 'string'],
  4: ['groups', { repeated: 'string' }],
  6: ['uid', 'string'],
};

const KINDS: Record<string, Spec> = {
  // kubectl auth can-i
  'authorization.k8s.io/v1/SelfSubjectAccessReview': { 1: meta, 2: ['spec', { message: reviewSpec }] },
  'authorization.k8s.io/v1/SubjectAccessReview': { 1: meta, 2: ['spec', { message: reviewSpec }] },
  // kubectl create token
  'authentication.k8s.io/v1/TokenRequest': {
    1: meta,
    2: [
      'spec',
      {
        message: {
          1: ['audiences', { repeated: 'string' }],
          4: ['expirationSeconds', 'int'],
          3: [
            'boundObjectRef',
            {
              message: {
                1: ['kind', 'string'],
                2: ['apiVersion', 'string'],
                3: ['name', 'string'],
                4: ['uid', 'string'],
              },
            },
          ],
        },
      },
    ],
  },
  'v1/Namespace': { 1: meta, 2: ['spec', { message: { 1: ['finalizers', { repeated: 'string' }] } }] },
  'v1/ConfigMap': {
    1: meta,
    2: ['data', { map: 'string' }],
    3: ['binaryData', { map: 'bytes64' }],
    4: ['immutable', 'bool'],
  },
  'v1/Secret': {
    1: meta,
    2: ['data', { map: 'bytes64' }],
    3: ['type', 'string'],
    4: ['stringData', { map: 'string' }],
    5: ['immutable', 'bool'],
  },
  'v1/ServiceAccount': {
    1: meta,
    3: ['imagePullSecrets', { repeated: { 1: ['name', 'string'] } }],
    4: ['automountServiceAccountToken', 'bool'],
  },
  'rbac.authorization.k8s.io/v1/Role': { 1: meta, 2: ['rules', { repeated: policyRule }] },
  'rbac.authorization.k8s.io/v1/ClusterRole': { 1: meta, 2: ['rules', { repeated: policyRule }] },
  'rbac.authorization.k8s.io/v1/RoleBinding': binding,
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': binding,
};

interface Field {
  num: number;
  wire: number;
  value: bigint | Buffer;
}

function* fields(buf: Buffer): Generator<Field> {
  let i = 0;
  const varint = (): bigint => {
    let result = 0n,
      shift = 0n;
    for (;;) {
      if (i >= buf.length) throw new Error('truncated varint');
      const b = buf[i++]!;
      result |= BigInt(b & 0x7f) << shift;
      if (!(b & 0x80)) return result;
      shift += 7n;
    }
  };
  while (i < buf.length) {
    const key = Number(varint());
    const num = key >> 3,
      wire = key & 7;
    if (wire === 0) yield { num, wire, value: varint() };
    else if (wire === 2) {
      const len = Number(varint());
      if (i + len > buf.length) throw new Error('truncated field');
      yield { num, wire, value: buf.subarray(i, i + len) };
      i += len;
    } else if (wire === 1) {
      i += 8;
    } else if (wire === 5) {
      i += 4;
    } else throw new Error(`unsupported wire type ${wire}`);
  }
}

function decodeMessage(buf: Buffer, spec: Spec): Record<string, unknown> {
  const out: Record<string, any> = {};
  for (const f of fields(buf)) {
    const def = spec[f.num];
    if (!def) continue;
    const [name, type] = def;
    const bytes = f.value as Buffer;
    if (type === 'string') {
      // gogo-protobuf writes unset optional strings as ""; JSON omits them (omitempty).
      if (bytes.length || name === 'value') out[name] = bytes.toString('utf8');
    } else if (type === 'bytes64') out[name] = bytes.toString('base64');
    else if (type === 'int') out[name] = Number(f.value);
    else if (type === 'bool') out[name] = (f.value as bigint) !== 0n;
    else if ('message' in type) out[name] = decodeMessage(bytes, type.message);
    else if ('map' in type) {
      const entry = decodeMessage(bytes, { 1: ['key', 'string'], 2: ['value', type.map] });
      (out[name] ??= {})[String(entry.key ?? '')] = entry.value ?? '';
    } else {
      const item = type.repeated === 'string' ? bytes.toString('utf8') : decodeMessage(bytes, type.repeated);
      (out[name] ??= []).push(item);
    }
  }
  return out;
}

/** Decodes a protobuf request body into a JSON object, or throws with a reason. */
export function decodeKubernetesProtobuf(body: Buffer): Record<string, unknown> {
  if (body.length < 4 || body.subarray(0, 4).toString('latin1') !== 'k8s\0')
    throw new Error('missing the k8s protobuf prefix');
  const unknown = decodeMessage(body.subarray(4), {
    1: ['typeMeta', { message: { 1: ['apiVersion', 'string'], 2: ['kind', 'string'] } }],
    2: ['raw', 'bytes64'],
  }) as { typeMeta?: { apiVersion?: string; kind?: string }; raw?: string };
  const apiVersion = unknown.typeMeta?.apiVersion ?? '';
  const kind = unknown.typeMeta?.kind ?? '';
  const spec = KINDS[`${apiVersion}/${kind}`];
  if (!spec) throw new Error(`protobuf is not supported for ${kind} ${apiVersion}; send JSON`);
  return { kind, apiVersion, ...decodeMessage(Buffer.from(unknown.raw ?? '', 'base64'), spec) };
}
