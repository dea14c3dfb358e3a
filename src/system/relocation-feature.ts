// Relocation between hubs (issue 11): the API (preflight, create, list, get, events, abort). The relocation.run
// job handler registers under `jobs` here.
import { relocationRoutes } from '../http/routes/relocations.js';
import { createRelocationService } from '../services/relocations/relocation-service.js';
import { relocationView, JOB_ANNOTATION } from '../services/relocations/relocation-view.js';
import type { RelocationObject } from '../services/relocations/preflight.js';
import type { Feature, FeatureDeps } from './features.js';

export function relocationFeature(deps: FeatureDeps): Feature {
  const relocations = createRelocationService({
    store: deps.store,
    operations: deps.operations,
    clock: deps.clock,
    log: deps.log.child({ component: 'relocations' }),
    stateHub: deps.config.stateHub,
    stateNamespace: deps.config.stateNamespace,
    // A team's relocation selects and moves its own team's clusters only.
    teams: deps.teams,
  });
  return {
    routes: [relocationRoutes({ relocations })],
    replays: {
      // The first answer was 202 with the relocation and its job; the preflight report is not kept.
      Relocation: async (_hub, obj) => {
        const relocation = relocationView(obj as RelocationObject, deps.clock.now());
        const jobId = obj.metadata.annotations?.[JOB_ANNOTATION];
        const job = jobId ? await deps.queue.get(jobId) : undefined;
        return { status: 202, location: relocation.links.self, body: { relocation, ...(job ? { job } : {}) } };
      },
    },
  };
}
