import { randomUUID, randomInt } from 'node:crypto';
import type { SchemaCause } from './types.js';
import { objectMetaShape } from './serialize.js';

/** RFC 3339 in whole seconds, as metav1.Time serialises. */
export const formatTime = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

export const newUid = () => randomUUID();

// k8s.io/apiserver/pkg/storage/names: 5 characters from an alphabet without vowels and look-alikes.
const ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
export function generateName(prefix: string): string {
  let suffix = '';
  for (let i = 0; i < 5; i++) suffix += ALPHABET[randomInt(ALPHABET.length)];
  return prefix.slice(0, 63 - 5) + suffix;
}

const SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', " +
  "and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is " +
  "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must " +
  "start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is " +
  "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

/** ObjectMeta validation shared by all kinds: name format (golden 88) and label/annotation basics. */
export function validateMeta(meta: any, nameFormat: 'subdomain' | 'label' | 'path' = 'subdomain'): SchemaCause[] {
  const causes: SchemaCause[] = [];
  const name = meta?.name;
  if (!name) {
    causes.push({
      reason: 'FieldValueRequired',
      message: 'Required value: name or generateName is required',
      field: 'metadata.name',
    });
  } else if (nameFormat === 'label' && (!LABEL.test(name) || name.length > 63)) {
    causes.push(
      invalidValue('metadata.name', name, name.length > 63 ? 'must be no more than 63 characters' : LABEL_MSG),
    );
  } else if (nameFormat === 'subdomain' && (!SUBDOMAIN.test(name) || name.length > 253)) {
    causes.push(
      invalidValue('metadata.name', name, name.length > 253 ? 'must be no more than 253 characters' : SUBDOMAIN_MSG),
    );
  } else if (nameFormat === 'path' && (name === '.' || name === '..' || /[/%]/.test(name))) {
    causes.push(invalidValue('metadata.name', name, "may not contain '/' or '%'"));
  }
  for (const key of ['labels', 'annotations'] as const) {
    const map = meta?.[key];
    if (map === undefined || map === null) continue;
    if (typeof map !== 'object' || Array.isArray(map)) continue;
    for (const [k, v] of Object.entries(map)) {
      if (typeof v !== 'string')
        causes.push({
          reason: 'FieldValueTypeInvalid',
          message: 'Invalid value: must be a string',
          field: `metadata.${key}.${k}`,
        });
      else if (
        key === 'labels' &&
        (v.length > 63 || (v !== '' && !/^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/.test(v)))
      ) {
        causes.push(
          invalidValue(
            `metadata.labels`,
            v,
            "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or " +
              "'.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or " +
              "'my_value',  or '12345', regex used for validation is " +
              "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
          ),
        );
      }
    }
  }
  return causes;
}

export const invalidValue = (field: string, value: unknown, detail: string): SchemaCause => ({
  reason: 'FieldValueInvalid',
  message: `Invalid value: ${JSON.stringify(value)}: ${detail}`,
  field,
});

/** The fields of ObjectMeta the server accepts from clients; anything else is an unknown field (golden 19). */
export const OBJECT_META_FIELDS: ReadonlySet<string> = new Set(objectMetaShape.order);

/** Go's %#v of a []string, used verbatim in the finalizer message (golden 66). */
export const goStringSlice = (xs: string[]) => `[]string{${xs.map((x) => JSON.stringify(x)).join(', ')}}`;
