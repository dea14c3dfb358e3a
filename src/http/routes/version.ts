// GET /version: what this process is (src/version.ts), on every role's HTTP server, open like /healthz so that a
// rollout can be checked with curl and without a token. Nothing in it is secret: the same facts are in the image.
import type { FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import type { VersionInfo } from '../../version.js';

export const VersionSchema = Type.Object(
  {
    version: Type.String({ description: "Beekeeper's version (package.json)", examples: ['0.1.0'] }),
    commit: Type.Union([Type.String(), Type.Null()], {
      description: 'The git commit the build came from; null when the build did not record it',
    }),
    node: Type.String({ description: 'The Node.js version the process runs on', examples: ['v24.21.0'] }),
    apiGroupVersion: Type.String({
      description: "The apiVersion of Beekeeper's own resources on the state hub",
      examples: ['beekeeper.io/v1beta1'],
    }),
    supportedHive: Type.Object(
      {
        apiVersion: Type.String({
          description: 'The Hive API Beekeeper reads and writes',
          examples: ['hive.openshift.io/v1'],
        }),
        testedCommit: Type.String({ description: 'The openshift/hive commit Beekeeper is tested against' }),
        testedCommitDate: Type.String({ description: 'Date of that commit' }),
        requires: Type.String({ description: 'What a hub must serve (docs/upgrades.md#supported-hive-versions)' }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false, title: 'Version' },
);

/** Documented in the api role's OpenAPI; the ops server of worker and scheduler serves the same answer. */
export function versionRoutes(info: VersionInfo): FastifyPluginAsync {
  return async (app) => {
    app.get(
      '/version',
      {
        schema: {
          summary: 'Which Beekeeper answers: version, commit, Node.js, resource apiVersion, supported Hive',
          tags: ['meta'],
          security: [],
          response: { 200: VersionSchema },
        },
      },
      async () => info,
    );
  };
}
