// `npm start`: every role in one process. With no configuration it runs against the embedded Hive simulator
// (one hub named `local`, demo data) and finds or starts a Redis, so a newcomer sees Beekeeper work at once.
import { ALL_ROLES } from '../system.js';
import { start } from './start.js';

await start({ roles: ALL_ROLES, allInOne: true });
