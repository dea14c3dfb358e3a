// The api role as its own process (one image, the role is the command: `npm run start:api`).
import { start } from './start.js';

await start({ roles: ['api'] });
