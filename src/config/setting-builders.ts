// The small builders the settings schemas are written with: a setting's variable (`env`), limits and default in one
// call, and the string rules most settings share (config/schema.ts explains the annotations).
import { Type } from 'typebox';
import { HUB_NAME } from './names.js';

export const DNS_LABEL = { pattern: HUB_NAME.source, rule: 'a DNS label (lowercase letters, digits, -)' };

export const int = (env: string, minimum: number, maximum: number, fallback: number) =>
  Type.Integer({ env, minimum, maximum, default: fallback });
export const num = (env: string, minimum: number, maximum: number, fallback: number) =>
  Type.Number({ env, minimum, maximum, default: fallback });
export const str = (env: string, extra: Record<string, unknown> = {}) => Type.Optional(Type.String({ env, ...extra }));
/** Text that is more than blanks (a path, a host, a name, a password). */
export const TEXT = { minLength: 1, pattern: '\\S', rule: 'more than blanks' };
export const nonEmpty = (extra: Record<string, unknown> = {}) => Type.String({ ...TEXT, ...extra });
