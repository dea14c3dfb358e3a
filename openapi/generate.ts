// `npm run openapi`: rewrite openapi/openapi.json from the routes (test/platform/openapi.test.ts fails on drift).
import { writeFileSync } from 'node:fs';
import { systemClock } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { describeApi } from '../src/system.js';

const spec = await describeApi(loadConfig({}), createLogger({ level: 'silent' }), systemClock);
writeFileSync(new URL('./openapi.json', import.meta.url), `${JSON.stringify(spec, null, 2)}\n`);
process.stdout.write('wrote openapi/openapi.json\n');
