// Request bodies: read with a size cap, and decoded to JSON text from the encodings clients send (JSON, YAML from
// some tools, protobuf from kubectl's generators for built-in kinds).
import type { IncomingMessage } from 'node:http';
import { parse as parseYaml } from 'yaml';
import { ApiError, badRequest, statusBody } from './status.js';
import { decodeKubernetesProtobuf } from './protobuf.js';

const MAX_BODY = 16 * 1024 * 1024;

export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY)
        reject(
          new ApiError(413, statusBody(413, 'RequestEntityTooLarge', 'Request entity too large: limit is 16777216')),
        );
      else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The body of a create or update as JSON text; other verbs' bodies (patches, DeleteOptions) pass through. */
export function bodyAsJson(raw: Buffer, contentType: string | undefined, decode: boolean): string {
  const ct = (contentType ?? '').split(';')[0]!.trim();
  const text = raw.toString('utf8');
  if (!decode || !text || !ct || ct === 'application/json') return text;
  if (ct === 'application/vnd.kubernetes.protobuf') return protobufToJson(raw);
  if (ct === 'application/yaml') return yamlToJson(text);
  throw new ApiError(
    415,
    statusBody(
      415,
      'UnsupportedMediaType',
      'the body of the request was in an unknown format - accepted media types include: ' +
        'application/json, application/yaml, application/vnd.kubernetes.protobuf',
    ),
  );
}

function yamlToJson(text: string): string {
  try {
    return JSON.stringify(parseYaml(text));
  } catch (err) {
    throw badRequest(`error converting YAML to JSON: ${(err as Error).message}`);
  }
}

function protobufToJson(raw: Buffer): string {
  try {
    return JSON.stringify(decodeKubernetesProtobuf(raw));
  } catch (err) {
    throw new ApiError(
      415,
      statusBody(415, 'UnsupportedMediaType', `cannot decode the protobuf body: ${(err as Error).message}`),
    );
  }
}
