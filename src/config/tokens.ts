// BEEKEEPER_API_TOKENS' shorthand, `name=token,...`, read into the file's form: a list of { name, token }
// (ApiTokenSchema). Messages name an entry by its holder or its position, never by its text: that holds the token.
import { TOKEN_NAME } from './schema.js';
import { splitList, type ListInput } from './shorthand.js';

export function parseTokens(text: string): ListInput {
  const problems = new Map<number, string>();
  const value = splitList(text).map((item, i): unknown => {
    const eq = item.indexOf('=');
    if (eq > 0) return { name: item.slice(0, eq), token: item.slice(eq + 1) };
    problems.set(i, `entry ${i + 1} must be written name=token`);
    return item;
  });
  const subject = (index: number, field: string | undefined) => {
    const name = (value[index] as { name?: string } | undefined)?.name;
    const entry = `entry ${index + 1}`;
    if (field === 'token') return name && TOKEN_NAME.test(name) ? `token for ${name}` : `token of ${entry}`;
    return field ? `${entry}'s ${field}` : `${entry}:`;
  };
  return { value, problems, subject };
}
