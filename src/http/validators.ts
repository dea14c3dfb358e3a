// Fastify's validator compiler for every route. A JSON body is checked exactly as sent: Ajv's type coercion would
// take `["demo/demo-aws"]` for a string, `4.16` for "4.16" and `"5"` for 5, so a body that means something else
// would be obeyed. Query strings and path parameters are text by nature, so they still convert (`?limit=20`,
// `?state=a` to a one-item list). Both report every problem at once and apply schema defaults.
import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

const SHARED: Options = { allErrors: true, useDefaults: true, removeAdditional: false, addUsedSchema: false };

function ajvWith(options: Options): Ajv {
  const ajv = new Ajv({ ...SHARED, ...options });
  addFormats.default(ajv);
  return ajv;
}

export function requestValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const body = ajvWith({ coerceTypes: false });
  const text = ajvWith({ coerceTypes: 'array' });
  return ({ schema, httpPart }) => (httpPart === 'body' ? body : text).compile(schema as object);
}
