// `beekeeper token new --name N [--team T --role R]`: a fresh random token and the entry that configures it, which
// holds only the token's SHA-256, so the configuration, the tokens file or the tokens Secret never hold the token.
// Needs no server: the operator adds the entry, hands the token to its holder, and removes the old entry to rotate.
import { createHash, randomBytes } from 'node:crypto';
import { HUB_NAME, TOKEN_NAME, TOKEN_ROLES } from '../config/names.js';
import { parse, UsageError } from './args.js';
import { EXIT, printJson, type CliContext } from './context.js';

export async function token(ctx: CliContext, args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== 'new')
    throw new UsageError('token: the only subcommand is "new" (token new --name N [--team T --role R])');
  const { values } = parse(rest, { name: { type: 'string' }, team: { type: 'string' }, role: { type: 'string' } });
  const { name, team, role } = values;
  if (!name || !TOKEN_NAME.test(name))
    throw new UsageError('token new: --name is the holder (letters, digits, . _ -, at most 63)');
  if (team !== undefined && !HUB_NAME.test(team))
    throw new UsageError(`token new: --team "${team}" is not a DNS label`);
  if (role !== undefined && !(TOKEN_ROLES as readonly string[]).includes(role))
    throw new UsageError(`token new: --role is one of ${TOKEN_ROLES.join(', ')}`);
  if (team !== undefined && (role === undefined || role === 'platform-admin'))
    throw new UsageError('token new: with --team give --role viewer, operator or admin');
  const secret = randomBytes(32).toString('base64url');
  const entry = {
    name,
    tokenSha256: createHash('sha256').update(secret).digest('hex'),
    ...(team ? { team } : {}),
    ...(role ? { role } : {}),
  };
  if (ctx.json) {
    printJson(ctx, { token: secret, entry });
    return EXIT.ok;
  }
  ctx.out(
    [
      `# the token for ${name} (shown once; hand it to its holder, who sends Authorization: Bearer <token>):`,
      secret,
      '# its entry for auth.tokens, the tokens file or the tokens Secret (holds no secret):',
      ...Object.entries(entry).map(([k, v], i) => `${i === 0 ? '- ' : '  '}${k}: ${v}`),
    ].join('\n'),
  );
  return EXIT.ok;
}
