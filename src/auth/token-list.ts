// The tokens file and the tokens Secret hold the same YAML: a list of {name, tokenSha256 | token, team?, role?},
// checked by the configuration's own entry schema and rules. Messages name an entry by position and holder, and
// never quote a value: any line may hold a token (so neither does a YAML syntax error's message, which would).
import { Compile } from 'typebox/compile';
import { parse, YAMLParseError } from 'yaml';
import type { StaticToken } from '../config.js';
import { hashedEntry } from '../config/auth.js';
import { tokenEntryRules } from '../config/rules.js';
import { TOKEN_NAME } from '../config/schema.js';
import { ApiTokenSchema } from '../config/team-schemas.js';

const entryValidator = Compile(ApiTokenSchema);

export type TokenListResult = { tokens: StaticToken[] } | { problems: string[] };

export function parseTokenList(text: string): TokenListResult {
  let doc: unknown;
  try {
    doc = parse(text, { prettyErrors: false });
  } catch (err) {
    const line = err instanceof YAMLParseError ? err.linePos?.[0]?.line : undefined;
    return { problems: [`not valid YAML${line ? ` (line ${line})` : ''}`] };
  }
  if (doc === null || doc === undefined) return { tokens: [] };
  if (!Array.isArray(doc)) return { problems: ['must be a YAML list of {name, tokenSha256 or token, team, role}'] };
  const problems: string[] = [];
  const tokens: StaticToken[] = [];
  doc.forEach((raw: unknown, i) => {
    const name = (raw as { name?: unknown } | null)?.name;
    const entry = `entry ${i + 1}${typeof name === 'string' && TOKEN_NAME.test(name) ? ` (${name})` : ''}`;
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
      problems.push(`${entry}: must be a mapping`);
      return;
    }
    const errors = entryValidator.Errors(raw).map((e) => {
      const field = e.instancePath.replace(/^\//, '');
      const missing = (e.params as { requiredProperties?: string[] }).requiredProperties;
      const extra = (e.params as { additionalProperties?: string[] }).additionalProperties;
      if (missing) return `${entry}: ${missing.join(', ')} is required`;
      if (extra) return `${entry}: unknown key ${extra.join(', ')}`;
      return `${entry}: ${field || 'entry'} ${e.message}`;
    });
    const rules = tokenEntryRules(raw as Record<string, unknown>).map(
      (p) => `${entry}: ${p.path.length ? `${p.path.join('.')} ` : ''}${p.reason}`,
    );
    if (errors.length + rules.length > 0) problems.push(...new Set([...errors, ...rules]));
    else tokens.push(hashedEntry(raw as Parameters<typeof hashedEntry>[0]));
  });
  return problems.length > 0 ? { problems } : { tokens };
}
